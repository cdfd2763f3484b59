// A skill's trigger set (`<skill>/evals/trigger-queries.json`) in the editor: the core's checks as diagnostics on
// the editor's text, completion of the request fields and their values, and hover on them. The fields, their
// meaning and the checks come from src/core/evals; this file only maps them to LSP.
import * as path from 'node:path';
import { getLocation, findNodeAtOffset, parseTree, type Node as JsonNode } from 'jsonc-parser/lib/esm/main.js';
import { CompletionItemKind, DiagnosticSeverity, InsertTextFormat, MarkupKind, type CompletionItem, type Connection, type Diagnostic, type Hover, type Position } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { checkTriggerQueries, isTriggerField, triggerTextParseable, TRIGGER_FIELD_NAMES, TRIGGER_FIELDS, TRIGGER_QUERIES_FILE } from '../src/core/evals';
import type { SyncSkillsHost } from '../src/core/host/skillsHost';
import { textOfRead } from '../src/core/host/skillsHost';
import { parseSkillFile } from '../src/core/skill/parseSkillFile';
import { DIAGNOSTIC_SOURCE } from './protocol';
import { uriToPath } from './uris';

/** True for a document the trigger-set checks (not the skill analysis) answer. */
export function isTriggerDocumentUri(uri: string): boolean {
  return uri.endsWith(`/${TRIGGER_QUERIES_FILE}`);
}

/** The SKILL.md read for the skill's name is at most this large (a name is in its first lines). */
const MAX_SKILL_READ = 256 * 1024;

const SPLIT_VALUE_DOCS: Record<string, string> = {
  train: '`train`: used while tuning the description (failures here guide the change).',
  validation: '`validation`: held out while tuning; its pass rate says whether a changed description generalises.',
};

export class TriggerDocuments {
  constructor(
    private readonly connection: Connection,
    private readonly fsys: SyncSkillsHost,
    /** The editor's text of a file when it is open (newer than the disk). */
    private readonly openText: (file: string) => string | undefined,
  ) {}

  /** The name of the skill a trigger file belongs to: its SKILL.md's `name`, else its folder's name. */
  skillOf(file: string): string {
    const dir = path.dirname(path.dirname(file));
    const skillFile = path.join(dir, 'SKILL.md');
    let text = this.openText(skillFile);
    if (text === undefined) {
      try {
        text = textOfRead(this.fsys.readFile(skillFile, { maxBytes: MAX_SKILL_READ }));
      } catch {
        text = undefined;
      }
    }
    const name = text === undefined ? undefined : parseSkillFile(text).properties.name;
    return typeof name === 'string' && name.trim() ? name.trim() : path.basename(dir);
  }

  /** Checks the document and publishes its findings. */
  validate(doc: TextDocument): void {
    const file = uriToPath(doc.uri);
    const { findings } = checkTriggerQueries(doc.getText(), { skill: file ? this.skillOf(file) : undefined, file: TRIGGER_QUERIES_FILE });
    const diagnostics: Diagnostic[] = findings.map((f) => ({
      range: { start: doc.positionAt(f.offset), end: doc.positionAt(f.offset + f.length) },
      severity: f.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
      code: f.rule,
      source: DIAGNOSTIC_SOURCE,
      message: f.message,
    }));
    void this.connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics });
  }

  closed(uri: string): void {
    void this.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  /** Field names inside a request, their values after the colon, and a whole new request between requests. */
  complete(doc: TextDocument, position: Position): CompletionItem[] {
    const text = doc.getText();
    if (!triggerTextParseable(text)) return [];
    const offset = doc.offsetAt(position);
    const loc = getLocation(text, offset);
    const [index, key] = loc.path;
    if (typeof index !== 'number') return loc.path.length === 0 ? [newRequest('[\n\t')] : [];
    if (loc.path.length === 1) return [newRequest('')];
    if (loc.path.length !== 2) return [];
    if (loc.isAtPropertyKey) {
      const item = findNodeAtOffset(parseTree(text) ?? emptyNode, offset);
      const object = enclosingObject(item);
      const present = new Set((object?.children ?? []).map((p) => p.children?.[0]?.value).filter((v): v is string => typeof v === 'string'));
      const typed = loc.previousNode && loc.previousNode.type === 'string' && offset >= loc.previousNode.offset && offset <= loc.previousNode.offset + loc.previousNode.length ? loc.previousNode : undefined;
      return TRIGGER_FIELD_NAMES.filter((n) => !present.has(n) || n === typed?.value).map((n) => {
        const f = TRIGGER_FIELDS[n];
        const value = f.type === 'boolean' ? '${1|true,false|}' : f.values ? `"\${1|${f.values.join(',')}|}"` : '"$1"';
        const insert = `"${n}": ${value}`;
        return {
          label: n,
          kind: CompletionItemKind.Property,
          detail: `${f.type}${f.required ? ', required' : ', optional'}`,
          documentation: { kind: MarkupKind.Markdown, value: f.doc },
          insertTextFormat: InsertTextFormat.Snippet,
          ...(typed
            ? { textEdit: { range: { start: doc.positionAt(typed.offset), end: doc.positionAt(typed.offset + typed.length) }, newText: insert } }
            : { insertText: insert }),
        };
      });
    }
    if (typeof key !== 'string' || !isTriggerField(key)) return [];
    const f = TRIGGER_FIELDS[key];
    if (f.type === 'boolean') return ['true', 'false'].map((v) => ({ label: v, kind: CompletionItemKind.Value, documentation: { kind: MarkupKind.Markdown, value: f.doc } }));
    if (f.values) return f.values.map((v) => ({ label: `"${v}"`, kind: CompletionItemKind.EnumMember, documentation: { kind: MarkupKind.Markdown, value: SPLIT_VALUE_DOCS[v] ?? f.doc } }));
    return [];
  }

  /** What a request field means (on its name), or what a split value means (on the value). */
  hover(doc: TextDocument, position: Position): Hover | null {
    const text = doc.getText();
    if (!triggerTextParseable(text)) return null;
    const node = findNodeAtOffset(parseTree(text) ?? emptyNode, doc.offsetAt(position));
    const prop = node?.parent;
    if (!node || prop?.type !== 'property' || enclosingObject(node)?.parent?.type !== 'array') return null;
    const name = prop.children?.[0]?.value;
    if (typeof name !== 'string' || !isTriggerField(name)) return null;
    const f = TRIGGER_FIELDS[name];
    const range = { start: doc.positionAt(node.offset), end: doc.positionAt(node.offset + node.length) };
    if (prop.children?.[0] === node) {
      const values = f.values ? ` (${f.values.map((v) => `\`"${v}"\``).join(' or ')})` : '';
      return { range, contents: { kind: MarkupKind.Markdown, value: `**${name}**: ${f.type}${values}, ${f.required ? 'required' : 'optional'}\n\n${f.doc}` } };
    }
    const doc2 = typeof node.value === 'string' ? SPLIT_VALUE_DOCS[node.value] : undefined;
    return name === 'split' && doc2 ? { range, contents: { kind: MarkupKind.Markdown, value: doc2 } } : null;
  }
}

const emptyNode: JsonNode = { type: 'null', offset: 0, length: 0 };

/** The object (a request) that holds `node` as one of its property keys or values. */
function enclosingObject(node: JsonNode | undefined): JsonNode | undefined {
  let n = node;
  while (n && n.type !== 'object') n = n.parent;
  return n;
}

function newRequest(prefix: string): CompletionItem {
  return {
    label: 'new request',
    kind: CompletionItemKind.Snippet,
    detail: '{ "query": ..., "should_trigger": ... }',
    documentation: { kind: MarkupKind.Markdown, value: `${TRIGGER_FIELDS.query.doc}\n\n${TRIGGER_FIELDS.should_trigger.doc}` },
    insertTextFormat: InsertTextFormat.Snippet,
    insertText: `${prefix}{ "query": "$1", "should_trigger": \${2|true,false|} }`,
  };
}
