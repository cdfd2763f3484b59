// Reading a small JSON file of ours (a trigger set, an eval set) within bounds, and the fields of one of its
// objects against a table (jsonFields.ts). Shared by the checks of both files so that they word the same problem
// the same way.
import { parseTree, type Node as JsonNode, type ParseError } from 'jsonc-parser/lib/esm/main.js';
import { nestingDepth as depthOf } from '../text/jsonNesting';
import { fieldTypeHint, isFieldOf, jsonTypeText, type JsonField } from './jsonFields';

/** The largest file parsed (a set of twenty requests is about 2 KB). */
export const MAX_JSON_FILE_CHARS = 1024 * 1024;
/** The deepest nesting parsed: the parser recurses per level (100,000 `[` overflowed the stack). */
export const MAX_JSON_DEPTH = 16;

/** The deepest nesting of `[` and `{` outside strings (see text/jsonNesting.ts), by default against MAX_JSON_DEPTH. */
export function nestingDepth(text: string, limit = MAX_JSON_DEPTH): number {
  return depthOf(text, limit);
}

/** Whether the parser may be run on this text (completion and hover ask too): within the size and depth bounds. */
export function jsonTextParseable(text: string): boolean {
  return text.length <= MAX_JSON_FILE_CHARS && nestingDepth(text) <= MAX_JSON_DEPTH;
}

/** The text parsed as strict JSON (no comments, no trailing commas), or which bound it broke. */
export type JsonTree = { kind: 'too-large' } | { kind: 'too-deep' } | { kind: 'parsed'; root: JsonNode | undefined; errors: ParseError[] };

export function readJsonTree(text: string): JsonTree {
  if (text.length > MAX_JSON_FILE_CHARS) return { kind: 'too-large' };
  if (nestingDepth(text) > MAX_JSON_DEPTH) return { kind: 'too-deep' };
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  return { kind: 'parsed', root, errors };
}

/** A character range of the text. */
export interface TextSpan {
  offset: number;
  length: number;
}

/** Reports a problem found by {@link readFields}. */
export type FieldProblem = (severity: 'error' | 'warning', at: TextSpan, message: string) => void;

/**
 * The fields of one object checked against `table`: an unknown field is a warning, a field given twice, a value of
 * the wrong type or outside the field's values an error, a required field missing an error (`missing` words the
 * fix). Answers the values that are well typed, by name. `label` starts each message ("Request 2", "Eval 3").
 */
export function readFields<K extends string>(
  object: JsonNode,
  table: Record<K, JsonField>,
  label: string,
  noun: string,
  problem: FieldProblem,
  missing: (name: K) => string,
): Map<K, JsonNode> {
  const names = Object.keys(table) as K[];
  const values = new Map<K, JsonNode>();
  const seen = new Set<string>();
  for (const prop of object.children ?? []) {
    const [keyNode, valueNode] = prop.children ?? [];
    if (!keyNode || typeof keyNode.value !== 'string') continue;
    const key = keyNode.value;
    if (!isFieldOf(table, key)) {
      problem('warning', keyNode, `${label}: unknown field "${key}"; ${noun} has ${names.map((f) => `"${f}"`).join(', ')}. Remove it or fix its name.`);
      continue;
    }
    if (seen.has(key)) problem('error', keyNode, `${label}: "${key}" is given twice; JSON readers keep only the last. Keep one.`);
    seen.add(key);
    if (!valueNode) continue;
    values.set(key, valueNode);
    const field = table[key];
    if (valueNode.type !== field.type) {
      problem('error', valueNode, `${label}: "${key}" must be ${fieldTypeHint(field)}; it is ${jsonTypeText(valueNode.type)}.`);
      values.delete(key);
    } else if (field.values && !field.values.includes(String(valueNode.value))) {
      problem('error', valueNode, `${label}: "${key}" is "${String(valueNode.value)}"; it must be ${field.values.map((v) => `"${v}"`).join(' or ')}.`);
      values.delete(key);
    } else if (field.items === 'string') {
      // (An array of objects holds records the caller checks one by one, with its own words.)
      for (const [i, item] of (valueNode.children ?? []).entries()) {
        if (item.type !== field.items) problem('error', item, `${label}: item ${i + 1} of "${key}" must be ${jsonTypeText(field.items)}; it is ${jsonTypeText(item.type)}.`);
      }
    }
  }
  for (const name of names) {
    if (table[name].required && !seen.has(name)) problem('error', { offset: object.offset, length: 1 }, `${label} has no "${name}"; add ${missing(name)}.`);
  }
  return values;
}
