import type { FrontmatterField, ParsedSkillFile, Range } from './types';

const MAX_LINES = 200;

/**
 * A fast path for simple files (the registry and parseSkillText use it): parses a SKILL.md whose
 * frontmatter is only simple `key: value` lines (plain scalars, optionally one level of `key:` +
 * two-space indented `child: value` lines) without the YAML library, in one pass and without regular
 * expressions, and returns exactly what {@link parseSkillFile} would return for it.
 * Returns `undefined` for anything else (quotes, block scalars, comments, lists, BOM, odd characters,
 * duplicate keys...), and the caller falls back to the full parser. The equivalence is checked by tests.
 */
export function fastParseSkillFile(text: string): ParsedSkillFile | undefined {
  // Line 0 must be exactly `---`. The full parser calls a file CRLF when `\r\n` occurs in its first 4096
  // characters; every frontmatter line must then end that way, and with LF none may.
  if (!text.startsWith('---')) return undefined;
  let crlf: boolean;
  const c3 = text.charCodeAt(3);
  if (c3 === 13) {
    if (text.charCodeAt(4) !== 10) return undefined;
    crlf = true;
  } else if (c3 === 10) {
    if (text.lastIndexOf('\r\n', 4095) >= 0) return undefined; // LF frontmatter in a CRLF file: mixed
    crlf = false;
  } else return undefined;
  const eol: '\n' | '\r\n' = crlf ? '\r\n' : '\n';
  const yamlOffset = crlf ? 5 : 4;

  const properties: Record<string, unknown> = {};
  const fields: FrontmatterField[] = [];
  let open: { field: FrontmatterField; map: Record<string, string> } | undefined;
  let pos = yamlOffset;
  let closeLine = -1;
  let closeStart = 0;
  let prevLength = 0; // length of the previous line, for the range of an open mapping
  // One pass over the frontmatter lines, up to the closing delimiter; the body is never split.
  for (let line = 1; line < MAX_LINES; line++) {
    const nl = text.indexOf('\n', pos);
    if (nl < 0) return undefined; // the closing `---` must end with a line break on this path
    let end = nl;
    if (text.charCodeAt(end - 1) === 13) {
      if (!crlf) return undefined;
      end--;
    } else if (crlf) return undefined; // mixed line endings: leave to the full parser
    const start = pos;
    pos = nl + 1;
    if (isDelimiter(text, start, end)) {
      closeLine = line;
      closeStart = start;
      break;
    }
    if (text.charCodeAt(start) === 32) {
      // `  child: value` under an open `key:`
      if (!open || text.charCodeAt(start + 1) !== 32) return undefined;
      const keyEnd = scanKey(text, start + 2, end);
      if (keyEnd < 0 || keyEnd + 1 >= end || text.charCodeAt(keyEnd + 1) !== 32) return undefined;
      const key = text.slice(start + 2, keyEnd);
      const value = text.slice(keyEnd + 2, end);
      if (!plainOk(value) || Object.prototype.hasOwnProperty.call(open.map, key)) return undefined;
      open.map[key] = value;
      open.field.children!.push(scalarField(key, value, line, 2, keyEnd + 2 - start));
      prevLength = end - start;
      continue;
    }
    if (open) {
      if (open.field.children!.length === 0) return undefined;
      closeMap(open.field, line - 1, prevLength);
      open = undefined;
    }
    const keyEnd = scanKey(text, start, end);
    if (keyEnd < 0) return undefined;
    const key = text.slice(start, keyEnd);
    if (Object.prototype.hasOwnProperty.call(properties, key) || key === '__proto__') return undefined;
    prevLength = end - start;
    if (keyEnd + 1 === end) {
      // `key:` opens a mapping of indented children
      const map: Record<string, string> = {};
      const field: FrontmatterField = { key, keyRange: rng(line, 0, line, key.length), valueRange: rng(0, 0, 0, 0), kind: 'map', value: map, children: [] };
      properties[key] = map;
      fields.push(field);
      open = { field, map };
      continue;
    }
    if (text.charCodeAt(keyEnd + 1) !== 32) return undefined;
    const value = text.slice(keyEnd + 2, end);
    if (!plainOk(value)) return undefined;
    properties[key] = value;
    fields.push(scalarField(key, value, line, 0, key.length + 2));
  }
  if (closeLine < 2) return undefined;
  if (open) {
    if (open.field.children!.length === 0) return undefined;
    closeMap(open.field, closeLine - 1, prevLength);
  }
  return {
    text,
    eol,
    hasBom: false,
    frontmatter: { openLine: 0, closeLine, yaml: text.slice(yamlOffset, closeStart), yamlOffset, yamlOk: true, isMapping: true },
    properties,
    fields,
    body: text.slice(pos),
    bodyStartLine: closeLine + 1,
    diagnostics: [],
  };
}

/** `---` followed only by spaces and tabs (the full parser's delimiter). */
function isDelimiter(text: string, start: number, end: number): boolean {
  if (end - start < 3 || !text.startsWith('---', start)) return false;
  for (let i = start + 3; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}

/**
 * Reads a key `[A-Za-z][A-Za-z0-9_-]*` followed by `:` at `start`; returns the offset of the `:`, or -1.
 */
function scanKey(text: string, start: number, end: number): number {
  if (start >= end || !isLetter(text.charCodeAt(start))) return -1;
  for (let i = start + 1; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 58) return i;
    if (!(isLetter(c) || (c >= 48 && c <= 57) || c === 95 || c === 45)) return -1;
  }
  return -1;
}

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

function closeMap(field: FrontmatterField, lastLine: number, lastLineLength: number): void {
  const first = field.children![0];
  field.valueRange = { start: first.keyRange.start, end: { line: lastLine, character: lastLineLength } };
  // A fresh copy, as the YAML library's toJSON gives a separate object for `value` and `properties`.
  field.value = { ...(field.value as Record<string, string>) };
}

function scalarField(key: string, value: string, line: number, keyStart: number, valueStart: number): FrontmatterField {
  return {
    key,
    keyRange: rng(line, keyStart, line, keyStart + key.length),
    valueRange: rng(line, valueStart, line, valueStart + value.length),
    kind: 'scalar',
    style: 'plain',
    value,
  };
}

function rng(sl: number, sc: number, el: number, ec: number): Range {
  return { start: { line: sl, character: sc }, end: { line: el, character: ec } };
}

/**
 * True when `value` is a YAML plain scalar that means exactly its own text: no indicator at the start,
 * no `: ` or ` #` inside, no trailing `:` or white space, and only printable characters.
 */
function plainOk(value: string): boolean {
  if (value.length === 0) return false;
  const first = value.charCodeAt(0);
  // - ? : , [ ] { } # & * ! | > ' " % @ `  and space
  if ('-?:,[]{}#&*!|>\'"%@` '.includes(value[0])) return false;
  if (first === 0x3d && value === '=') return false;
  const last = value.charCodeAt(value.length - 1);
  if (last === 0x20 || last === 0x3a) return false;
  if (value.includes(': ') || value.includes(' #')) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0x2028 || c === 0x2029 || c >= 0xd800) return false;
  }
  if (value === '---' || value === '...') return false;
  return true;
}
