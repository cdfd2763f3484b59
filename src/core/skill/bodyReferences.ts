import { lowerBound } from '../text/lowerBound';
import { fencedBlocks, inBlocks, inInlineCode } from './markdownBlocks';
import { TextIndex } from './textIndex';
import { charOffsetsOf, NextChar } from './textSearch';
import type { ParsedSkillFile, Range } from './skillTypes';

/**
 * Where in the Markdown a reference was found. `text` is a bare `scripts/…` path in prose; `variable` a path
 * through a host's skill-folder variable (`${CLAUDE_SKILL_DIR}/check.py`), wherever it is written.
 */
export type BodyReferenceKind = 'link' | 'inline-code' | 'code-block' | 'text' | 'variable';

/** A relative file reference in the body of a SKILL.md. */
export interface BodyReference {
  /** The path as written (without `#fragment` or `?query`, percent-decoded for links). */
  path: string;
  kind: BodyReferenceKind;
  /** Range of the path in SKILL.md. */
  range: Range;
  /** Offsets of the path in the file text. */
  start: number;
  end: number;
  /** For a `variable` reference: the variable written before the path (`${CLAUDE_SKILL_DIR}`). */
  variable?: string;
}

/** Folders whose bare paths (`scripts/run.py`) count as references even outside links. */
const RESOURCE_PREFIXES = ['scripts/', 'references/', 'assets/'] as const;

/** `[A-Za-z0-9_.-]`, by char code (hot loop: no one-character strings, no regex). */
function isSegmentCode(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 46 || c === 45;
}

/** A segment character, `/`, or one of `@+%~`. */
function isPathCode(c: number): boolean {
  return isSegmentCode(c) || c === 47 || c === 64 || c === 43 || c === 37 || c === 126;
}
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * References (and links) read from one body at most. A real skill has a handful; a generated body with
 * 100,000 links cost seconds to scan (each path is checked against every link span) and gave 100,000
 * findings, during which the language server answered nothing.
 */
export const MAX_BODY_REFERENCES = 1000;

/**
 * The longest link target or bare path read (PATH_MAX on Linux): no file of a skill has a longer path, and a
 * target scan never walks further, so `[a](` repeated costs each link at most this much instead of the rest of
 * the file (a 400 KB body of them took 14 s and quoted each target whole in its diagnostic).
 */
export const MAX_REFERENCE_CHARS = 4096;

/**
 * Parentheses nested inside a link target. A relative path nests one level at most (`file_(v2).md`); cmark allows
 * 32. With a limit, at most this many target scans can be walking over any one character (each started one level
 * deeper than the last), so all of them together are linear in the body, and a low one keeps that factor small.
 */
const MAX_TARGET_PARENS = 4;

/** Options for {@link extractBodyReferences}. */
export interface ExtractReferencesOptions {
  /**
   * More top-level folder names of the skill (e.g. `templates`, `examples`) whose bare paths count as
   * references, besides scripts/, references/ and assets/. Pass the folders that exist, so prose such as
   * `evals/evals.json` describing files the skill creates elsewhere is not mistaken for a reference.
   */
  folders?: readonly string[];
  /** A TextIndex of `parsed.text` to reuse. */
  index?: TextIndex;
  /** Variables hosts replace by the skill's folder (`${CLAUDE_SKILL_DIR}`): `<variable>/<path>` is a reference to `<path>`. */
  variables?: readonly string[];
}

/**
 * The top-level folders of a skill whose bare paths count as references ({@link ExtractReferencesOptions.folders}):
 * its folders, dot folders left out. `entries`: the skill folder's listing, links followed.
 */
export function referenceFolders(entries: readonly { name: string; kind: string }[]): string[] {
  return entries.filter((e) => e.kind === 'directory' && !e.name.startsWith('.')).map((e) => e.name);
}

const REFERENCES_MEMO = {};

/**
 * Finds the relative files a SKILL.md body refers to: Markdown links and images with a relative target,
 * and `scripts/…`, `references/…`, `assets/…` paths (optionally `./`-prefixed) in prose, inline code and
 * code blocks. Pure and cheap: it scans with `indexOf` and only looks around the hits, and stops after
 * {@link MAX_BODY_REFERENCES} links or references. With an index, found once per index and options (the language
 * server's links and the reference rules ask for the same): the result is then shared, so callers must not change it.
 */
export function extractBodyReferences(parsed: Pick<ParsedSkillFile, 'text' | 'body'>, indexOrOptions: TextIndex | ExtractReferencesOptions = {}): BodyReference[] {
  const options: ExtractReferencesOptions = indexOrOptions instanceof TextIndex ? { index: indexOrOptions } : indexOrOptions;
  const given = options.index;
  if (!given || given.text !== parsed.text) return extract(parsed, options, given ?? new TextIndex(parsed.text));
  const byOptions = given.memo(REFERENCES_MEMO, () => new Map<string, { body: string; refs: BodyReference[] }>());
  const key = `${(options.folders ?? []).join('/')}\u0000${(options.variables ?? []).join('\u0000')}`;
  const known = byOptions.get(key);
  if (known && known.body === parsed.body) return known.refs;
  const refs = extract(parsed, options, given);
  byOptions.set(key, { body: parsed.body, refs });
  return refs;
}

function extract(parsed: Pick<ParsedSkillFile, 'text' | 'body'>, options: ExtractReferencesOptions, index: TextIndex): BodyReference[] {
  const text = parsed.text;
  const prefixes: string[] = [...RESOURCE_PREFIXES];
  for (const f of options.folders ?? []) if (!prefixes.includes(`${f}/`)) prefixes.push(`${f}/`);
  const base = text.length - parsed.body.length;
  const blocks = fencedBlocks(text, index, base).blocks;
  const refs: BodyReference[] = [];
  const linkSpans: [number, number][] = [];
  const add = (path: string, start: number, end: number, kind: BodyReferenceKind) => {
    refs.push({ path, kind, start, end, range: index.rangeOf(start, end) });
  };

  // Inline links and images `](target)`, and reference definitions `[label]: target` at a line start.
  // One single-character search serves both (it is much faster than a two-character one).
  const next = { gt: new NextChar(text, '>'), nl: new NextChar(text, '\n') };
  // The `]`s are shared with the body rules (link-reference definitions, anchor links), which search for them too.
  const brackets = charOffsetsOf(index, text, ']');
  for (let at = brackets.at(base); at >= 0 && linkSpans.length < MAX_BODY_REFERENCES; at = brackets.at(at + 1)) {
    const after = text.charCodeAt(at + 1);
    if ((after !== 40 /* ( */ && after !== 58) /* : */ || inBlocks(blocks, at)) continue;
    if (after === 40) {
      // `[text](path)` inside a code span is code, not a link (CommonMark). Asked after the target is read: a body of
      // `](` repeated has no target at most of them, and the target's bounded scan is cheaper than the code-span search.
      const target = linkTarget(text, at + 2, next);
      if (!target || inInlineCode(index, at)) continue;
      linkSpans.push([target.start, target.end]);
      const path = cleanLinkTarget(target.raw);
      if (path) add(path, target.start, target.end, 'link');
      continue;
    }
    const lineStart = index.lineStartOf(at);
    // A label holds at most 999 characters (CommonMark), so a long line is never sliced for the test; `[^note]: text`
    // is a footnote, not a link definition.
    if (at - lineStart > 1003 || !/^ {0,3}\[[^\]^][^\]]*$/.test(text.slice(lineStart, at))) continue;
    let s = at + 2;
    while (text[s] === ' ' || text[s] === '\t') s++;
    let e = s;
    const last = Math.min(text.length, s + MAX_REFERENCE_CHARS);
    while (e < last && !isSpaceCode(text.charCodeAt(e))) e++;
    if (e === last && e < text.length && !isSpaceCode(text.charCodeAt(e))) continue;
    linkSpans.push([s, e]);
    const path = cleanLinkTarget(text.slice(s, e).replace(/^<|>$/g, ''));
    if (path) add(path, s, e, 'link');
  }
  const inLink = spanLookup(linkSpans);
  // Bare resource paths: found from each `/` (a one-character search is much faster than searching for
  // each folder name in a long two-byte string), then the folder segment before it is checked.
  const folders = prefixes.map((p) => p.slice(0, -1));
  for (let slash = text.indexOf('/', base); slash >= 0 && refs.length < MAX_BODY_REFERENCES; slash = text.indexOf('/', slash + 1)) {
    let at = slash;
    while (at > base && isSegmentCode(text.charCodeAt(at - 1))) at--;
    if (at === slash || !isFolderAt(text, at, slash - at, folders)) continue;
    let start = at;
    if (text.startsWith('./', at - 2)) start = at - 2;
    const before = start > base ? text.charCodeAt(start - 1) : 32;
    if (isPathCode(before) || before === 36 /* $ */ || before === 125 /* } */) continue;
    if (inLink(start)) continue;
    let end = slash + 1;
    while (end < text.length && isPathCode(text.charCodeAt(end))) end++;
    if (end - start > MAX_REFERENCE_CHARS) {
      slash = end - 1;
      continue; // longer than any path a file system takes: not a reference
    }
    while (end > slash + 1 && /[.,:;]/.test(text[end - 1])) end--;
    if (end === slash + 1) continue; // the bare folder name (`scripts/`) names a convention, not a file
    const next = text[end];
    if (next === '*' || next === '{' || next === '<' || next === '$' || next === '[') continue; // globs and templates
    add(text.slice(start, end), start, end, inBlocks(blocks, at) ? 'code-block' : inInlineCode(index, at) ? 'inline-code' : 'text');
    slash = end - 1;
  }
  for (const v of options.variables ?? []) {
    const lead = `${v}/`;
    for (let at = text.indexOf(lead, base); at >= 0 && refs.length < MAX_BODY_REFERENCES; at = text.indexOf(lead, at + lead.length)) {
      const start = at + lead.length;
      let end = start;
      while (end < text.length && isPathCode(text.charCodeAt(end))) end++;
      while (end > start && /[.,:;]/.test(text[end - 1])) end--;
      const next = text[end];
      if (end === start || next === '*' || next === '{' || next === '<' || next === '$' || next === '[') continue;
      const path = text.slice(start, end).replace(/\/+$/, '');
      if (path) refs.push({ path, kind: 'variable', start, end: start + path.length, range: index.rangeOf(start, start + path.length), variable: v });
    }
  }
  refs.sort((a, b) => a.start - b.start);
  return refs;
}

/** True when one of `folders` (of length `len`) is written at `at`. */
function isFolderAt(text: string, at: number, len: number, folders: readonly string[]): boolean {
  for (let i = 0; i < folders.length; i++) if (folders[i].length === len && text.startsWith(folders[i], at)) return true;
  return false;
}

/** White space as `\s` reads it in ASCII, and the Unicode spaces beyond. */
function isSpaceCode(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || (c > 127 && /\s/.test(String.fromCharCode(c)));
}

/**
 * A test of "offset lies in one of these spans" for spans sorted by start (they may overlap): a binary search
 * for the last span starting at or before the offset, and the furthest end of all spans up to it.
 */
function spanLookup(spans: readonly [number, number][]): (at: number) => boolean {
  const reach: number[] = [];
  let furthest = -1;
  for (const [, e] of spans) reach.push((furthest = Math.max(furthest, e)));
  return (at) => {
    const last = lowerBound(spans.length, (i) => spans[i][0] <= at) - 1;
    return last >= 0 && reach[last] > at;
  };
}

/**
 * The link destination starting at `from` (just after `](`), with its offsets; undefined when there is none, or
 * when it is longer than {@link MAX_REFERENCE_CHARS} or nests parentheses deeper than {@link MAX_TARGET_PARENS}.
 */
function linkTarget(text: string, from: number, next: { gt: NextChar; nl: NextChar }): { raw: string; start: number; end: number } | undefined {
  let s = from;
  while (text.charCodeAt(s) === 32) s++;
  if (text.charCodeAt(s) === 60 /* < */) {
    const e = next.gt.at(s + 1);
    const nl = next.nl.at(s + 1);
    if (e < 0 || (nl >= 0 && nl < e) || e - s > MAX_REFERENCE_CHARS) return undefined;
    return { raw: text.slice(s + 1, e), start: s + 1, end: e };
  }
  let e = s;
  let depth = 0;
  const last = Math.min(text.length, s + MAX_REFERENCE_CHARS);
  for (; e < last; e++) {
    const c = text.charCodeAt(e);
    if (c === 40 /* ( */) {
      if (++depth > MAX_TARGET_PARENS) return undefined;
    } else if (c === 41 /* ) */) {
      if (depth === 0) break;
      depth--;
    } else if (c === 32 && depth === 0) {
      // `[x](Data Dictionary/_index.md)`: wiki exporters write destinations with spaces unencoded. CommonMark ends
      // the destination at the space (a title may follow); when what follows up to the `)` on this line is no
      // title ("…", '…', (…)), the spaces are part of the path the reader follows.
      const close = text.indexOf(')', e);
      const nl = next.nl.at(e);
      if (close > e && (nl < 0 || close < nl) && close < last && !/^\s*["'(]/.test(text.slice(e, close)) && !text.slice(e, close).includes('(')) {
        e = close;
      }
      break;
    } else if (c === 32 || c === 10 || c === 13 || c === 9) break;
  }
  if (e === last && e < text.length) return undefined;
  if (e === s) return undefined;
  return { raw: text.slice(s, e), start: s, end: e };
}

/** The relative file path of a link target, or undefined for URLs, anchors, absolute and templated paths. */
function cleanLinkTarget(raw: string): string | undefined {
  if (!raw || raw.startsWith('#') || raw.startsWith('/') || raw.startsWith('\\') || raw.startsWith('~') || SCHEME.test(raw)) return undefined;
  if (/[{}$<>*]/.test(raw)) return undefined;
  const cut = raw.search(/[#?]/);
  const path = cut >= 0 ? raw.slice(0, cut) : raw;
  if (!path) return undefined;
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
