// A skill's eval set (`<skill>/evals/evals.json`) in the editor: the core's checks as diagnostics on the editor's
// text (input files resolved in the skill's folder), completion of the fields of the file and of a case (and of
// the skill's name as `skill_name`), and hover on them. The fields and the checks come from src/core/evals.
import { findNodeAtOffset, getLocation, parseTree, type Node as JsonNode } from 'jsonc-parser/lib/esm/main.js';
import { CompletionItemKind, InsertTextFormat, MarkupKind, type CompletionItem, type Hover, type Position } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { checkEvals, EVAL_CASE_FIELDS, EVALS_FILE, EVALS_FILE_FIELDS, isEvalCaseField, isEvalsFileField, jsonTextParseable, type JsonField } from '../src/core/evals';
import { emptyNode, enclosingObject, fieldHover, fieldNameItems, presentKeys, propertyAt, SkillJsonDocuments, skillDirOf, typedKey } from './jsonFieldFeatures';
import { uriToPath } from './uris';

/** True for a document the eval-set checks answer. */
export function isEvalsDocumentUri(uri: string): boolean {
  return uri.endsWith(`/${EVALS_FILE}`);
}

export class EvalsDocuments extends SkillJsonDocuments {
  /** Input files are resolved in the skill's folder on the server's host. */
  protected check(text: string, file: string | undefined) {
    const where = file ? { skill: this.skillName(file), skillDir: skillDirOf(file), host: this.fsys } : {};
    return checkEvals(text, { ...where, file: EVALS_FILE }).findings;
  }

  /** Field names of the file and of a case, the skill's name as `skill_name`, and a new case between cases. */
  complete(doc: TextDocument, position: Position): CompletionItem[] {
    const text = doc.getText();
    if (!jsonTextParseable(text)) return [];
    const offset = doc.offsetAt(position);
    const loc = getLocation(text, offset);
    const p = loc.path;
    const object = () => enclosingObject(findNodeAtOffset(parseTree(text) ?? emptyNode, offset));
    if (loc.isAtPropertyKey && p.length === 1) return fieldNameItems(doc, EVALS_FILE_FIELDS, presentKeys(object()), typedKey(loc, offset));
    if (loc.isAtPropertyKey && p.length === 3 && p[0] === 'evals' && typeof p[1] === 'number') {
      return fieldNameItems(doc, EVAL_CASE_FIELDS, presentKeys(object()), typedKey(loc, offset));
    }
    if (p.length === 2 && p[0] === 'evals' && typeof p[1] === 'number') return [newCase(nextId(text))];
    if (p.length === 1 && p[0] === 'skill_name' && !loc.isAtPropertyKey) {
      const file = uriToPath(doc.uri);
      if (!file) return [];
      const name = this.skillName(file);
      return [{ label: `"${name}"`, kind: CompletionItemKind.Value, documentation: { kind: MarkupKind.Markdown, value: EVALS_FILE_FIELDS.skill_name.doc } }];
    }
    return [];
  }

  /** What a field means, on its name (the file's fields and a case's). */
  hover(doc: TextDocument, position: Position): Hover | null {
    const at = propertyAt(doc, position, jsonTextParseable);
    if (!at?.onKey || typeof at.name !== 'string') return null;
    const name = at.name;
    const table = tableOf(enclosingObject(at.node));
    const field: JsonField | undefined = table === 'file' && isEvalsFileField(name) ? EVALS_FILE_FIELDS[name] : table === 'case' && isEvalCaseField(name) ? EVAL_CASE_FIELDS[name] : undefined;
    return field ? fieldHover(name, field, at.range) : null;
  }
}

/** Which table an object's keys come from: the file's (the root object) or a case's (an element of `evals`). */
function tableOf(object: JsonNode | undefined): 'file' | 'case' | undefined {
  if (!object) return undefined;
  if (!object.parent) return 'file';
  const list = object.parent;
  const prop = list.type === 'array' ? list.parent : undefined;
  return prop?.type === 'property' && prop.children?.[0]?.value === 'evals' && !prop.parent?.parent ? 'case' : undefined;
}

/** One more than the largest id in the text (1 when none parses). */
function nextId(text: string): number {
  const ids = [...text.matchAll(/"id"\s*:\s*(\d{1,9})/g)].map((m) => Number(m[1]));
  return ids.length ? Math.max(...ids) + 1 : 1;
}

function newCase(id: number): CompletionItem {
  return {
    label: 'new eval',
    kind: CompletionItemKind.Snippet,
    detail: '{ "id": ..., "prompt": ..., "expected_output": ..., "files": [], "assertions": [] }',
    documentation: { kind: MarkupKind.Markdown, value: `${EVAL_CASE_FIELDS.prompt.doc}\n\n${EVAL_CASE_FIELDS.expected_output.doc}` },
    insertTextFormat: InsertTextFormat.Snippet,
    insertText: `{ "id": ${id}, "prompt": "$1", "expected_output": "$2", "files": [], "assertions": [] }`,
  };
}
