import { lowerBound } from '../text/lowerBound';
import { TextIndex } from './textIndex';
import { NextChar } from './textSearch';

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
  if (index.text !== text) return blocksOf(text, fenceOffsets(text, base));
  const memo = index.memo<FencesMemo>(FENCES_MEMO, () => ({ fences: fenceOffsets(text, 0), byFirst: new Map() }));
  const fences = memo.fences;
  const first = lowerBound(fences.length, (i) => fences[i] < base);
  let found = memo.byFirst.get(first);
  if (!found) memo.byFirst.set(first, (found = blocksOf(text, first === 0 ? memo.fences : memo.fences.slice(first))));
  return found;
}

/**
 * Offsets of the fences (``` or ~~~ opening a line after at most 3 blank characters) from `base` on, in order. Found
 * by searching for the three characters themselves (a body has far fewer of them than lines or backticks), each hit
 * checked by looking back at most four characters for its line start.
 */
function fenceOffsets(text: string, base: number): number[] {
  const ticks = fencesOf(text, base, '```');
  const tildes = fencesOf(text, base, '~~~');
  if (tildes.length === 0) return ticks;
  if (ticks.length === 0) return tildes;
  const all: number[] = [];
  let i = 0;
  let j = 0;
  while (i < ticks.length || j < tildes.length) all.push(j >= tildes.length || (i < ticks.length && ticks[i] < tildes[j]) ? ticks[i++] : tildes[j++]);
  return all;
}

/** Offsets of `fence` (three backticks or tildes) that open a fence line; a longer run counts once, at its start. */
function fencesOf(text: string, base: number, fence: string): number[] {
  const out: number[] = [];
  const ch = fence.charCodeAt(0);
  for (let at = text.indexOf(fence, base); at >= 0; at = text.indexOf(fence, at + 3)) {
    let lineStart = at;
    while (lineStart > 0 && at - lineStart < 4 && text.charCodeAt(lineStart - 1) !== 10) lineStart--;
    // At most three characters before it on its line, all blank as trim() reads them (Unicode spaces too).
    if (at - lineStart <= 3 && (lineStart === 0 || text.charCodeAt(lineStart - 1) === 10) && (lineStart === at || text.slice(lineStart, at).trim() === '')) out.push(at);
    while (text.charCodeAt(at + 3) === ch) at++;
  }
  return out;
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

/**
 * True when offset `at` lies in one of `blocks` (sorted, not overlapping, so their ends ascend too): the first block
 * ending after `at` is found by a binary search, so many blocks cost log time, and holds `at` when it starts at or
 * before it.
 */
export function inBlocks(blocks: readonly [number, number][], at: number): boolean {
  const i = lowerBound(blocks.length, (k) => blocks[k][1] <= at);
  return i < blocks.length && blocks[i][0] <= at;
}

/** Per index: the backticks of each line asked about (by its start), and where the next backtick is. */
interface TicksMemo {
  byLine: Map<number, number[]>;
  next: NextChar;
}

const TICKS_MEMO = {};

/**
 * True when an odd number of backticks precede `at` on its line (so `at` sits inside inline code). A line's backticks
 * are found once per index, the first time a position on it is asked about, so each question costs two binary
 * searches: a one-line body of backticks and many hits does not walk the line per hit. Only the lines asked about
 * are searched (a reference or a placeholder is on a few lines; a body has hundreds of backticks), and the search
 * for the next backtick past a line is kept for the next line asked (callers ask in increasing order), so a body
 * without backticks after the first lines is searched once, not once per line.
 */
export function inInlineCode(index: TextIndex, at: number): boolean {
  const memo = index.memo<TicksMemo>(TICKS_MEMO, () => ({ byLine: new Map(), next: new NextChar(index.text, '`') }));
  const line = index.positionAt(at).line;
  const lineStart = index.lineStart(line);
  let ticks = memo.byLine.get(lineStart);
  if (!ticks) {
    ticks = [];
    const end = index.lineStart(line + 1);
    for (let i = memo.next.at(lineStart); i >= 0 && i < end; i = memo.next.at(i + 1)) ticks.push(i);
    memo.byLine.set(lineStart, ticks);
  }
  const found = ticks;
  return lowerBound(found.length, (i) => found[i] < at) % 2 === 1;
}
