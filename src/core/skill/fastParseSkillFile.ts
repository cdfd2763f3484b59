import { FRONTMATTER_LIMITS } from './parseLimits';
import type { FrontmatterField, ParsedSkillFile, Range } from './skillTypes';

const MAX_LINES = 200;

/**
 * A fast path for simple files (the registry and parseSkillText use it): parses a SKILL.md whose
 * frontmatter is only simple `key: value` lines (plain scalars, optionally one level of `key:` +
 * two-space indented `child: value` lines) without the YAML library, in one pass and without regular
 * expressions, and returns exactly what {@link parseSkillFile} would return for it.
 * Returns `undefined` for anything else (quotes, block scalars, comments, lists, BOM, odd characters,
 * duplicate keys...), and the caller falls back to the full parser. The equivalence is checked by tests.
 *
 * `lazyRanges`: the fields' `keyRange` and `valueRange` are computed when read (getters on a small class)
 * instead of built up front: the same values, for callers such as the registry's cold scan that only need
 * a range when a finding is reported. The fields are then not plain objects (spreading or serializing one
 * leaves the ranges out), so editor features keep the default.
 */
export function fastParseSkillFile(text: string, lazyRanges = false): ParsedSkillFile | undefined {
  // Line 0 must be exactly `---`. The full parser calls a file CRLF when `\r\n` occurs in its first 4096
  // characters; every frontmatter line must then end that way, and with LF none may.
  if (!text.startsWith('---')) return undefined;
  let crlf: boolean;
  const c3 = text.charCodeAt(3);
  if (c3 === 13) {
    if (text.charCodeAt(4) !== 10) return undefined;
    crlf = true;
  } else if (c3 === 10) {
    if (hasCrlfBefore(text, 4096)) return undefined; // LF frontmatter in a CRLF file: mixed
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
      const key = keyAt(text, start + 2, keyEnd);
      if (!plainOk(text, keyEnd + 2, end) || hasKey(open.field.children!, key)) return undefined;
      const value = text.slice(keyEnd + 2, end);
      open.map[key] = value;
      open.field.children!.push(lazyRanges ? new LazyScalarField(key, value, line, 2) : scalarField(key, value, line, 2, keyEnd + 2 - start));
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
    const key = keyAt(text, start, keyEnd);
    if (key === '__proto__' || hasKey(fields, key)) return undefined;
    prevLength = end - start;
    if (keyEnd + 1 === end) {
      // `key:` opens a mapping of indented children
      const map: Record<string, string> = {};
      const field: FrontmatterField = lazyRanges
        ? new LazyMapField(key, map, line)
        : { key, keyRange: rng(line, 0, line, key.length), valueRange: rng(0, 0, 0, 0), kind: 'map', value: map, children: [] };
      setProperty(properties, key, map);
      fields.push(field);
      open = { field, map };
      continue;
    }
    if (text.charCodeAt(keyEnd + 1) !== 32) return undefined;
    if (!plainOk(text, keyEnd + 2, end)) return undefined;
    const value = text.slice(keyEnd + 2, end);
    setProperty(properties, key, value);
    fields.push(lazyRanges ? new LazyScalarField(key, value, line, 0) : scalarField(key, value, line, 0, key.length + 2));
  }
  if (closeLine < 2) return undefined;
  // Past the size limit the full parser refuses the frontmatter; the answer must not depend on the path taken.
  if (closeStart - yamlOffset > FRONTMATTER_LIMITS.maxChars) return undefined;
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

/** True when `\r\n` starts before offset `limit` (the full parser's test for a CRLF file). */
function hasCrlfBefore(text: string, limit: number): boolean {
  // A one-character search is much cheaper than a two-character one, and most files have no `\r` at all.
  for (let r = text.indexOf('\r'); r >= 0 && r < limit; r = text.indexOf('\r', r + 1)) {
    if (text.charCodeAt(r + 1) === 10) return true;
  }
  return false;
}

/** True when a field of `fields` has `key` (a handful of fields: cheaper than a property lookup). */
function hasKey(fields: readonly FrontmatterField[], key: string): boolean {
  for (const f of fields) if (f.key === key) return true;
  return false;
}

/**
 * The key written at `start..end`: a constant when it is one of the keys most files use (a new slice of
 * the text would have to be hashed to become a property name), else a slice of the text. One comparison
 * at most, chosen by length and first character.
 */
function keyAt(text: string, start: number, end: number): string {
  const k = commonKey(end - start, text.charCodeAt(start));
  return k !== undefined && sameAt(text, start, k) ? k : text.slice(start, end);
}

function commonKey(length: number, first: number): string | undefined {
  switch (length) {
    case 4:
      return first === 110 /* n */ ? 'name' : undefined;
    case 11:
      return first === 100 /* d */ ? 'description' : undefined;
    case 7:
      return first === 108 /* l */ ? 'license' : first === 118 /* v */ ? 'version' : undefined;
    case 8:
      return first === 109 /* m */ ? 'metadata' : undefined;
    case 13:
      return first === 99 /* c */ ? 'compatibility' : first === 97 /* a */ ? 'allowed-tools' : undefined;
    case 6:
      return first === 97 /* a */ ? 'author' : undefined;
    default:
      return undefined;
  }
}

/** True when `text` holds `s` at `start` (a loop: cheaper than `startsWith` for a few characters). */
function sameAt(text: string, start: number, s: string): boolean {
  for (let i = 1; i < s.length; i++) if (text.charCodeAt(start + i) !== s.charCodeAt(i)) return false;
  return true;
}

/**
 * `o[key] = value`, with a named store for the common keys: a store whose key varies goes through V8's
 * generic (megamorphic) path, several times slower than a named one when it adds a property.
 */
function setProperty(o: Record<string, unknown>, key: string, value: unknown): void {
  switch (key) {
    case 'name':
      o.name = value;
      return;
    case 'description':
      o.description = value;
      return;
    case 'license':
      o.license = value;
      return;
    case 'metadata':
      o.metadata = value;
      return;
    default:
      o[key] = value;
  }
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
  // A fresh copy, as the YAML library's toJSON gives a separate object for `value` and `properties`.
  field.value = { ...(field.value as Record<string, string>) };
  if (field instanceof LazyMapField) {
    field.lastLine = lastLine;
    field.lastLineLength = lastLineLength;
    return;
  }
  const first = field.children![0];
  field.valueRange = { start: first.keyRange.start, end: { line: lastLine, character: lastLineLength } };
}

/** A plain `key: value` field whose ranges are built when read (see `lazyRanges`). */
class LazyScalarField implements FrontmatterField {
  // Constants on the prototype (below), so each of the thousands of fields of a scan is a smaller object.
  declare readonly kind: 'scalar';
  declare readonly style: 'plain';
  constructor(
    readonly key: string,
    readonly value: string,
    private readonly line: number,
    /** Column of the key; the value starts after `key: `. */
    private readonly keyStart: number,
  ) {}

  get keyRange(): Range {
    return rng(this.line, this.keyStart, this.line, this.keyStart + this.key.length);
  }

  get valueRange(): Range {
    const valueStart = this.keyStart + this.key.length + 2;
    return rng(this.line, valueStart, this.line, valueStart + this.value.length);
  }
}
Object.defineProperties(LazyScalarField.prototype, { kind: { value: 'scalar', enumerable: true }, style: { value: 'plain', enumerable: true } });

/** A `key:` line opening indented `child: value` lines, with ranges built when read (see `lazyRanges`). */
class LazyMapField implements FrontmatterField {
  readonly kind = 'map';
  readonly children: FrontmatterField[] = [];
  lastLine = 0;
  lastLineLength = 0;
  constructor(
    readonly key: string,
    public value: Record<string, string>,
    private readonly line: number,
  ) {}

  get keyRange(): Range {
    return rng(this.line, 0, this.line, this.key.length);
  }

  get valueRange(): Range {
    return { start: this.children[0].keyRange.start, end: { line: this.lastLine, character: this.lastLineLength } };
  }
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

/** What may not occur inside a plain value on this path: control and odd characters, `: `, ` #`. */
const NOT_PLAIN = /[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\uffff]|: | #/g;

/** First characters that make a value more than a plain scalar: - ? : , [ ] { } # & * ! | > ' " % @ ` and space. */
const PLAIN_BAD_FIRST: boolean[] = Array.from({ length: 128 }, (_, c) => '-?:,[]{}#&*!|>\'"%@` '.includes(String.fromCharCode(c)));

/** Values up to this length are checked by {@link plainShortOk}. */
const SHORT_VALUE = 24;

/** {@link plainOk}'s checks inside a short value whose first and last characters passed, as a loop. */
function plainShortOk(text: string, start: number, end: number, first: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0x2028 || c === 0x2029 || c >= 0xd800) return false;
    // `: ` and ` #` (the last character is neither `:` nor space, so `i + 1 < end` here)
    if ((c === 0x3a && text.charCodeAt(i + 1) === 0x20) || (c === 0x20 && text.charCodeAt(i + 1) === 0x23)) return false;
  }
  return !(end - start === 3 && first === 0x2e && text.charCodeAt(start + 1) === 0x2e && text.charCodeAt(start + 2) === 0x2e);
}

/**
 * True when `text[start..end)` is a YAML plain scalar that means exactly its own text: no indicator at the
 * start, no `: ` or ` #` inside, no trailing `:` or white space, and only printable characters. Reads the
 * file's text in place: a slice of it would be slower to scan character by character.
 */
function plainOk(text: string, start: number, end: number): boolean {
  if (end <= start) return false;
  const first = text.charCodeAt(start);
  if (first < 128 && PLAIN_BAD_FIRST[first]) return false;
  if (first === 0x3d && end - start === 1) return false; // `=`
  const last = text.charCodeAt(end - 1);
  if (last === 0x20 || last === 0x3a) return false;
  // Short values (names, licenses, versions): a loop, cheaper than starting the regular expression.
  if (end - start <= SHORT_VALUE) return plainShortOk(text, start, end, first);
  // No control or odd character, no `: ` and no ` #` inside. The line break at `end` is itself a control
  // character, so the first match from `start` is at `end` exactly when the value is clean (the last
  // character is neither `:` nor space, so no two-character match straddles `end`). A regular expression
  // scans a long description two to three times faster than a loop over charCodeAt.
  NOT_PLAIN.lastIndex = start;
  if (!NOT_PLAIN.test(text) || NOT_PLAIN.lastIndex !== end + 1) return false;
  // `---` and `...` (3 characters, first `-` already refused): a document marker, not a value.
  return !(end - start === 3 && first === 0x2e && text.charCodeAt(start + 1) === 0x2e && text.charCodeAt(start + 2) === 0x2e);
}
