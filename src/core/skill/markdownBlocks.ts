import { TextIndex } from './textIndex';

/** Fenced code blocks of a Markdown body, and the fence left open at the end, if any. */
export interface FencedBlocks {
  /** Offsets `[start, end)` of each block, in order; an unclosed block runs to the end of the text. */
  blocks: [number, number][];
  /**
   * The opening fence that is never closed: its offset, the fence as written (e.g. three backticks; cut at
   * {@link MAX_FENCE_SHOWN} characters) and its length.
   */
  unclosed?: { start: number; fence: string; length: number };
}

const FENCES_MEMO = {};

/** Longest fence {@link FencedBlocks.unclosed} repeats (a fence of a million backticks is a length, not a string to copy). */
export const MAX_FENCE_SHOWN = 256;

/** Per index: the fences of the whole text (found once), and the blocks paired from them, by the first fence used. */
interface FencesMemo {
  fences: number[];
  byFirst: Map<number, FencedBlocks>;
}

/**
 * Fenced code blocks (``` or ~~~, indented at most 3 spaces) of `text` from offset `base` (the body), computed once
 * per index and base: the result is shared, so callers must not change it. The fences are found once for the whole
 * text and paired from the first one at or after `base`, so the body rules (from the body) and the file rules (from
 * offset 0) share one pass, and the same blocks when the frontmatter holds no fence.
 */
export function fencedBlocks(text: string, index: TextIndex, base: number): FencedBlocks {
  if (index.text !== text) return blocksOf(text, fencesAtLineStarts(text, base, new TextIndex(text).allLineStarts()));
  const memo = index.memo<FencesMemo>(FENCES_MEMO, () => ({ fences: fencesAtLineStarts(text, 0, index.allLineStarts()), byFirst: new Map() }));
  const first = countBelow(memo.fences, base);
  let found = memo.byFirst.get(first);
  if (!found) memo.byFirst.set(first, (found = blocksOf(text, first === 0 ? memo.fences : memo.fences.slice(first))));
  return found;
}

/**
 * Offsets of the fences (``` or ~~~ opening a line after at most 3 blank characters) from `base` on, found from the
 * line starts instead of from every backtick: a body has far fewer lines than backticks of inline code.
 */
function fencesAtLineStarts(text: string, base: number, lineStarts: readonly number[]): number[] {
  const fences: number[] = [];
  for (const ls of lineStarts) {
    const last = Math.min(ls + 3, text.length - 1);
    for (let at = ls < base ? base : ls; at <= last; at++) {
      const c = text.charCodeAt(at);
      if (c === 96 || c === 126) {
        if (text.startsWith(c === 96 ? '```' : '~~~', at) && (at === ls || text.slice(ls, at).trim() === '')) fences.push(at);
        break;
      }
      // Blank ASCII (what trim() removes) goes on; any other ASCII ends the blank prefix. Beyond ASCII, the
      // trim() above decides (Unicode spaces are blank too).
      if (c === 10 || (c < 128 && c !== 32 && (c < 9 || c > 13))) break;
    }
  }
  return fences;
}

/** Pairs sorted fence offsets into blocks: a fence closes the open block when it uses its character, at least as many. */
function blocksOf(text: string, fences: readonly number[]): FencedBlocks {
  if (fences.length === 0) return { blocks: [] };
  const blocks: [number, number][] = [];
  // The open block as three numbers (no object per fence: a body of `~~~` lines has a quarter of a million of them).
  let openStart = -1;
  let openCh = 0;
  let openLen = 0;
  for (const at of fences) {
    const ch = text.charCodeAt(at);
    let len = 3;
    while (text.charCodeAt(at + len) === ch) len++;
    if (openStart < 0) {
      openStart = at;
      openCh = ch;
      openLen = len;
      continue;
    }
    if (ch !== openCh || len < openLen) continue;
    const nl = text.indexOf('\n', at + len);
    const lineEnd = nl < 0 ? text.length : text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
    if (!isBlank(text, at + len, lineEnd)) continue;
    blocks.push([openStart, lineEnd]);
    openStart = -1;
  }
  if (openStart < 0) return { blocks };
  blocks.push([openStart, text.length]);
  return { blocks, unclosed: { start: openStart, fence: String.fromCharCode(openCh).repeat(Math.min(openLen, MAX_FENCE_SHOWN)), length: openLen } };
}

/** True when `text` from `from` to `to` is white space only, as `trim()` reads it, without copying it. */
function isBlank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || (c >= 9 && c <= 13)) continue;
    if (c < 128 || text.charAt(i).trim() !== '') return false;
  }
  return true;
}

/** True when offset `at` lies in one of `blocks` (sorted, not overlapping): a binary search, so many blocks cost log time. */
export function inBlocks(blocks: readonly [number, number][], at: number): boolean {
  let lo = 0;
  let hi = blocks.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [s, e] = blocks[mid];
    if (at < s) hi = mid - 1;
    else if (at >= e) lo = mid + 1;
    else return true;
  }
  return false;
}

const TICKS_MEMO = {};

/** Number of entries of the sorted `list` below `value`. */
function countBelow(list: readonly number[], value: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * True when an odd number of backticks precede `at` on its line (so `at` sits inside inline code). The backticks
 * of the text are found once per index, so each question costs two binary searches instead of a walk over the
 * line: a one-line body of backticks and many hits used to cost the line's length per hit.
 */
export function inInlineCode(index: TextIndex, at: number): boolean {
  const ticks = index.memo(TICKS_MEMO, () => backticksOf(index.text));
  const lineStart = index.lineStartOf(at);
  return (countBelow(ticks, at) - countBelow(ticks, lineStart)) % 2 === 1;
}

function backticksOf(text: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf('`'); i >= 0; i = text.indexOf('`', i + 1)) out.push(i);
  return out;
}
