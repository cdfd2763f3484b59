import { fencedBlocks, inBlocks } from './markdownBlocks';
import { TextIndex } from './textIndex';
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
 * Finds the relative files a SKILL.md body refers to: Markdown links and images with a relative target,
 * and `scripts/…`, `references/…`, `assets/…` paths (optionally `./`-prefixed) in prose, inline code and
 * code blocks. Pure and cheap: it scans with `indexOf` and only looks around the hits, and stops after
 * {@link MAX_BODY_REFERENCES} links or references.
 */
export function extractBodyReferences(parsed: Pick<ParsedSkillFile, 'text' | 'body'>, indexOrOptions: TextIndex | ExtractReferencesOptions = {}): BodyReference[] {
  const options: ExtractReferencesOptions = indexOrOptions instanceof TextIndex ? { index: indexOrOptions } : indexOrOptions;
  const text = parsed.text;
  const index = options.index ?? new TextIndex(parsed.text);
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
  for (let at = text.indexOf(']', base); at >= 0 && linkSpans.length < MAX_BODY_REFERENCES; at = text.indexOf(']', at + 1)) {
    const next = text.charCodeAt(at + 1);
    if ((next !== 40 /* ( */ && next !== 58) /* : */ || inBlocks(blocks, at)) continue;
    if (next === 40) {
      // `[text](path)` inside a code span is code, not a link (CommonMark).
      if (inInlineCode(text, index, at)) continue;
      const target = linkTarget(text, at + 2);
      if (!target) continue;
      linkSpans.push([target.start, target.end]);
      const path = cleanLinkTarget(target.raw);
      if (path) add(path, target.start, target.end, 'link');
      continue;
    }
    const lineStart = index.lineStartOf(at);
    // `[^note]: text` is a footnote, not a link definition.
    if (!/^ {0,3}\[[^\]^][^\]]*$/.test(text.slice(lineStart, at))) continue;
    let s = at + 2;
    while (text[s] === ' ' || text[s] === '\t') s++;
    let e = s;
    while (e < text.length && !/\s/.test(text[e])) e++;
    linkSpans.push([s, e]);
    const path = cleanLinkTarget(text.slice(s, e).replace(/^<|>$/g, ''));
    if (path) add(path, s, e, 'link');
  }
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
    if (linkSpans.some(([s, e]) => start >= s && start < e)) continue;
    let end = slash + 1;
    while (end < text.length && isPathCode(text.charCodeAt(end))) end++;
    while (end > slash + 1 && /[.,:;]/.test(text[end - 1])) end--;
    if (end === slash + 1) continue; // the bare folder name (`scripts/`) names a convention, not a file
    const next = text[end];
    if (next === '*' || next === '{' || next === '<' || next === '$' || next === '[') continue; // globs and templates
    add(text.slice(start, end), start, end, inBlocks(blocks, at) ? 'code-block' : inInlineCode(text, index, at) ? 'inline-code' : 'text');
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
      if (path) add(path, start, start + path.length, 'variable');
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

/** True when an odd number of backticks precede `at` on its line (so `at` sits inside inline code). */
function inInlineCode(text: string, index: TextIndex, at: number): boolean {
  const lineStart = index.lineStartOf(at);
  let ticks = 0;
  for (let i = text.indexOf('`', lineStart); i >= 0 && i < at; i = text.indexOf('`', i + 1)) ticks++;
  return ticks % 2 === 1;
}

/** The link destination starting at `from` (just after `](`), with its offsets. */
function linkTarget(text: string, from: number): { raw: string; start: number; end: number } | undefined {
  let s = from;
  while (text[s] === ' ') s++;
  if (text[s] === '<') {
    const e = text.indexOf('>', s + 1);
    const nl = text.indexOf('\n', s);
    if (e < 0 || (nl >= 0 && nl < e)) return undefined;
    return { raw: text.slice(s + 1, e), start: s + 1, end: e };
  }
  let e = s;
  let depth = 0;
  while (e < text.length) {
    const c = text[e];
    if (c === '(') depth++;
    else if (c === ')') {
      if (depth === 0) break;
      depth--;
    } else if (c === ' ' || c === '\n' || c === '\r' || c === '\t') break;
    e++;
  }
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
