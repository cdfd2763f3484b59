import type { FrontmatterField, ParsedSkillFile, Range } from './types';

const KEY = /^([A-Za-z][A-Za-z0-9_-]*):(?: (.*))?$/;
const NESTED = /^  ([A-Za-z][A-Za-z0-9_-]*): (.*)$/;
const DELIMITER = /^---[ \t]*$/;
const MAX_LINES = 200;

/**
 * A fast path for simple files (the registry and parseSkillText use it): parses a SKILL.md whose frontmatter is only simple `key: value` lines
 * (plain scalars, optionally one level of `key:` + two-space indented `child: value` lines) without
 * the YAML library, and returns exactly what {@link parseSkillFile} would return for it.
 * Returns `undefined` for anything else (quotes, block scalars, comments, lists, BOM, odd characters,
 * duplicate keys...), and the caller falls back to the full parser. The equivalence is checked by tests.
 */
export function fastParseSkillFile(text: string): ParsedSkillFile | undefined {
  if (!text.startsWith('---')) return undefined;
  const crlf = text.indexOf('\r\n', 0) >= 0 && text.indexOf('\r\n') < 4096;
  const eol: '\n' | '\r\n' = crlf ? '\r\n' : '\n';
  const lines: string[] = [];
  const lineStarts: number[] = [];
  let pos = 0;
  let closeLine = -1;
  // Walk lines until the closing delimiter; the body is never split.
  for (let line = 0; line < MAX_LINES; line++) {
    const nl = text.indexOf('\n', pos);
    if (nl < 0) return undefined; // the closing `---` must end with a line break on this path
    let end = nl;
    if (text.charCodeAt(end - 1) === 13) {
      if (!crlf) return undefined;
      end--;
    } else if (crlf) return undefined; // mixed line endings: leave to the full parser
    const lineText = text.slice(pos, end);
    lineStarts.push(pos);
    lines.push(lineText);
    pos = nl + 1;
    if (line === 0) {
      if (lineText !== '---') return undefined;
    } else if (DELIMITER.test(lineText)) {
      closeLine = line;
      break;
    }
  }
  if (closeLine < 2) return undefined;

  const properties: Record<string, unknown> = {};
  const fields: FrontmatterField[] = [];
  let open: { field: FrontmatterField; map: Record<string, string> } | undefined;
  for (let line = 1; line < closeLine; line++) {
    const lineText = lines[line];
    if (lineText.startsWith('  ')) {
      if (!open) return undefined;
      const m = NESTED.exec(lineText);
      if (!m || !plainOk(m[2]) || Object.prototype.hasOwnProperty.call(open.map, m[1])) return undefined;
      const keyStart = 2;
      const valueStart = keyStart + m[1].length + 2;
      open.map[m[1]] = m[2];
      open.field.children!.push(scalarField(m[1], m[2], line, keyStart, valueStart));
      continue;
    }
    if (open) {
      if (open.field.children!.length === 0) return undefined;
      closeMap(open.field, lines, line - 1);
      open = undefined;
    }
    const m = KEY.exec(lineText);
    if (!m || Object.prototype.hasOwnProperty.call(properties, m[1]) || m[1] === '__proto__') return undefined;
    const key = m[1];
    const value = m[2];
    if (value === undefined) {
      const map: Record<string, string> = {};
      const field: FrontmatterField = { key, keyRange: rng(line, 0, line, key.length), valueRange: rng(0, 0, 0, 0), kind: 'map', value: map, children: [] };
      properties[key] = map;
      fields.push(field);
      open = { field, map };
      continue;
    }
    if (!plainOk(value)) return undefined;
    properties[key] = value;
    fields.push(scalarField(key, value, line, 0, key.length + 2));
  }
  if (open) {
    if (open.field.children!.length === 0) return undefined;
    closeMap(open.field, lines, closeLine - 1);
  }
  const yamlOffset = lineStarts[1];
  const bodyStartLine = closeLine + 1;
  return {
    text,
    eol,
    hasBom: false,
    frontmatter: { openLine: 0, closeLine, yaml: text.slice(yamlOffset, lineStarts[closeLine]), yamlOffset, yamlOk: true, isMapping: true },
    properties,
    fields,
    body: text.slice(pos),
    bodyStartLine,
    diagnostics: [],
  };
}

function closeMap(field: FrontmatterField, lines: string[], lastLine: number): void {
  const first = field.children![0];
  field.valueRange = { start: first.keyRange.start, end: { line: lastLine, character: lines[lastLine].length } };
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
