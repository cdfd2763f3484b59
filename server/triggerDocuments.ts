// A skill's trigger set (`<skill>/evals/trigger-queries.json`) in the editor: the core's checks as diagnostics on
// the editor's text, completion of the request fields and their values, and hover on them. The fields, their
// meaning and the checks come from src/core/evals; this file only maps them to LSP.
import { getLocation, findNodeAtOffset, parseTree } from 'jsonc-parser/lib/esm/main.js';
import { CompletionItemKind, InsertTextFormat, MarkupKind, type CompletionItem, type Hover, type Position } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { checkTriggerQueries, isTriggerField, triggerTextParseable, TRIGGER_FIELDS, TRIGGER_QUERIES_FILE } from '../src/core/evals';
import { emptyNode, enclosingObject, fieldHover, fieldNameItems, presentKeys, propertyAt, SkillJsonDocuments, typedKey } from './jsonFieldFeatures';

/** True for a document the trigger-set checks (not the skill analysis) answer. */
export function isTriggerDocumentUri(uri: string): boolean {
  return uri.endsWith(`/${TRIGGER_QUERIES_FILE}`);
}

const SPLIT_VALUE_DOCS: Record<string, string> = {
  train: '`train`: used while tuning the description (failures here guide the change).',
  validation: '`validation`: held out while tuning; its pass rate says whether a changed description generalises.',
};

export class TriggerDocuments extends SkillJsonDocuments {
  protected check(text: string, file: string | undefined) {
    return checkTriggerQueries(text, { skill: file ? this.skillName(file) : undefined, file: TRIGGER_QUERIES_FILE }).findings;
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
      return fieldNameItems(doc, TRIGGER_FIELDS, presentKeys(enclosingObject(item)), typedKey(loc, offset));
    }
    if (typeof key !== 'string' || !isTriggerField(key)) return [];
    const f = TRIGGER_FIELDS[key];
    if (f.type === 'boolean') return ['true', 'false'].map((v) => ({ label: v, kind: CompletionItemKind.Value, documentation: { kind: MarkupKind.Markdown, value: f.doc } }));
    if (f.values) return f.values.map((v) => ({ label: `"${v}"`, kind: CompletionItemKind.EnumMember, documentation: { kind: MarkupKind.Markdown, value: SPLIT_VALUE_DOCS[v] ?? f.doc } }));
    return [];
  }

  /** What a request field means (on its name), or what a split value means (on the value). */
  hover(doc: TextDocument, position: Position): Hover | null {
    const at = propertyAt(doc, position, triggerTextParseable);
    if (!at || enclosingObject(at.node)?.parent?.type !== 'array') return null;
    const name = at.name;
    if (typeof name !== 'string' || !isTriggerField(name)) return null;
    if (at.onKey) return fieldHover(name, TRIGGER_FIELDS[name], at.range);
    const doc2 = typeof at.node.value === 'string' ? SPLIT_VALUE_DOCS[at.node.value] : undefined;
    return name === 'split' && doc2 ? { range: at.range, contents: { kind: MarkupKind.Markdown, value: doc2 } } : null;
  }
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
