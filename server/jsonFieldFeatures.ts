// What the server does the same way for each JSON file of a skill's evals (trigger set, eval set): the skill's
// name for the checks, findings as diagnostics, completion items and hover for the fields of a table
// (src/core/evals/jsonFields.ts). The tables and the checks are the core's; this file only maps them to LSP.
import * as path from 'node:path';
import { findNodeAtOffset, parseTree, type Location as JsonLocation, type Node as JsonNode } from 'jsonc-parser/lib/esm/main.js';
import { CompletionItemKind, DiagnosticSeverity, InsertTextFormat, MarkupKind, type CompletionItem, type Connection, type Diagnostic, type Hover, type Position, type Range } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { fieldTypeText, fieldValueSnippet, type JsonField } from '../src/core/evals';
import type { SyncSkillsHost } from '../src/core/host/skillsHost';
import { textOfRead } from '../src/core/host/skillsHost';
import { parseSkillFile } from '../src/core/skill/parseSkillFile';
import { DIAGNOSTIC_SOURCE } from './protocol';
import { uriToPath } from './uris';

/** The SKILL.md read for the skill's name is at most this large (a name is in its first lines). */
const MAX_SKILL_READ = 256 * 1024;

/** The folder of the skill an `evals/<file>.json` belongs to. */
export function skillDirOf(file: string): string {
  return path.dirname(path.dirname(file));
}

/** The name of the skill an evals file belongs to: its SKILL.md's `name` (the editor's text when open), else its folder's name. */
export function skillNameOf(fsys: SyncSkillsHost, openText: (file: string) => string | undefined, file: string): string {
  const dir = skillDirOf(file);
  const skillFile = path.join(dir, 'SKILL.md');
  let text = openText(skillFile);
  if (text === undefined) {
    try {
      text = textOfRead(fsys.readFile(skillFile, { maxBytes: MAX_SKILL_READ }));
    } catch {
      text = undefined;
    }
  }
  const name = text === undefined ? undefined : parseSkillFile(text).properties.name;
  return typeof name === 'string' && name.trim() ? name.trim() : path.basename(dir);
}

/** A core finding at a character range. */
export interface TextFinding {
  rule: string;
  severity: 'error' | 'warning';
  message: string;
  offset: number;
  length: number;
}

export function findingDiagnostics(doc: TextDocument, findings: readonly TextFinding[]): Diagnostic[] {
  return findings.map((f) => ({
    range: { start: doc.positionAt(f.offset), end: doc.positionAt(f.offset + f.length) },
    severity: f.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    code: f.rule,
    source: DIAGNOSTIC_SOURCE,
    message: f.message,
  }));
}

/** The object that holds `node` as one of its property keys or values. */
export function enclosingObject(node: JsonNode | undefined): JsonNode | undefined {
  let n = node;
  while (n && n.type !== 'object') n = n.parent;
  return n;
}

/** The names given in an object already. */
export function presentKeys(object: JsonNode | undefined): Set<string> {
  return new Set((object?.children ?? []).map((p) => p.children?.[0]?.value).filter((v): v is string => typeof v === 'string'));
}

/**
 * Completion of the field names of `table` not yet in the object (`present`); `typed` is the string key being typed,
 * which the item replaces.
 */
export function fieldNameItems(doc: TextDocument, table: Record<string, JsonField>, present: Set<string>, typed: JsonNode | undefined): CompletionItem[] {
  return Object.entries(table)
    .filter(([n]) => !present.has(n) || n === typed?.value)
    .map(([n, f]) => {
      const insert = `"${n}": ${fieldValueSnippet(f)}`;
      return {
        label: n,
        kind: CompletionItemKind.Property,
        detail: `${fieldTypeText(f)}${f.required ? ', required' : ', optional'}`,
        documentation: { kind: MarkupKind.Markdown, value: f.doc },
        insertTextFormat: InsertTextFormat.Snippet,
        ...(typed
          ? { textEdit: { range: { start: doc.positionAt(typed.offset), end: doc.positionAt(typed.offset + typed.length) }, newText: insert } }
          : { insertText: insert }),
      };
    });
}

/** Hover on a field's name: its type, whether required, what it means. */
export function fieldHover(name: string, f: JsonField, range: Range): Hover {
  const values = f.values ? ` (${f.values.map((v) => `\`"${v}"\``).join(' or ')})` : '';
  return { range, contents: { kind: MarkupKind.Markdown, value: `**${name}**: ${fieldTypeText(f)}${values}, ${f.required ? 'required' : 'optional'}\n\n${f.doc}` } };
}

/** The string key being typed at `offset`, if any (a completion item replaces it). */
export function typedKey(loc: JsonLocation, offset: number): JsonNode | undefined {
  const n = loc.previousNode;
  return n && n.type === 'string' && offset >= n.offset && offset <= n.offset + n.length ? n : undefined;
}

export const emptyNode: JsonNode = { type: 'null', offset: 0, length: 0 };

/** The JSON node under the cursor inside a property (its key or its value), the property, and the node's range. */
export interface PropertyAt {
  node: JsonNode;
  property: JsonNode;
  /** The property's name, when its key is a string. */
  name: unknown;
  /** True when the cursor is on the key, not the value. */
  onKey: boolean;
  range: Range;
}

/**
 * What a hover is on in a JSON document: undefined when `parseable` refuses the text (the file kind's size and depth
 * bounds, checked before the parser recurses) or the cursor is not in a property.
 */
export function propertyAt(doc: TextDocument, position: Position, parseable: (text: string) => boolean): PropertyAt | undefined {
  const text = doc.getText();
  if (!parseable(text)) return undefined;
  const node = findNodeAtOffset(parseTree(text) ?? emptyNode, doc.offsetAt(position));
  const property = node?.parent;
  if (!node || property?.type !== 'property') return undefined;
  const key = property.children?.[0];
  return { node, property, name: key?.value, onKey: key === node, range: { start: doc.positionAt(node.offset), end: doc.positionAt(node.offset + node.length) } };
}

/**
 * One kind of evals file in the editor (trigger set, eval set): what the two share — publishing the core's
 * findings for the editor's text, clearing them on close, the skill's name — with the checks, completion and hover
 * of the kind.
 */
export abstract class SkillJsonDocuments {
  constructor(
    protected readonly connection: Connection,
    protected readonly fsys: SyncSkillsHost,
    /** The editor's text of a file when it is open (newer than the disk). */
    protected readonly openText: (file: string) => string | undefined,
  ) {}

  /** The core's findings for the text of the file at `file` (undefined when the URI is not a file path). */
  protected abstract check(text: string, file: string | undefined): readonly TextFinding[];
  abstract complete(doc: TextDocument, position: Position): CompletionItem[];
  abstract hover(doc: TextDocument, position: Position): Hover | null;

  /** Checks the document and publishes its findings. */
  validate(doc: TextDocument): void {
    const diagnostics = findingDiagnostics(doc, this.check(doc.getText(), uriToPath(doc.uri)));
    void this.connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics });
  }

  closed(uri: string): void {
    void this.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  /** The name of the skill the file belongs to. */
  protected skillName(file: string): string {
    return skillNameOf(this.fsys, this.openText, file);
  }
}
