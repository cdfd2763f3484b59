import { lowerBound } from '../text/lowerBound';
import type { TextIndex } from './textIndex';

/**
 * `text.includes(needle, from)`, found through one character of the needle, `needle[anchor]`, that the
 * caller knows is rare in skill texts. A SKILL.md with one character beyond Latin-1 (an em dash, an arrow)
 * is stored as a two-byte string, and V8 searches those for a multi-character needle such as `ARGUMENTS`
 * up to 40 times slower than for one character; on a 33 KB body that was most of a validation.
 */
export function includesVia(text: string, needle: string, anchor: number, from = 0): boolean {
  return indexVia(text, needle, anchor, from) >= 0;
}

/** `text.indexOf(needle, from)` the same way as {@link includesVia}: through the rare character `needle[anchor]`. */
export function indexVia(text: string, needle: string, anchor: number, from = 0): number {
  const c = needle[anchor];
  for (let at = text.indexOf(c, Math.max(0, from) + anchor); at >= 0; at = text.indexOf(c, at + 1)) {
    if (text.startsWith(needle, at - anchor)) return at - anchor;
  }
  return -1;
}

/**
 * The next offset of a character (or of a match of a one-character class) at or after a position, for questions
 * asked in increasing order: the last answer is kept while it still lies ahead, so a text full of `](<` without
 * any `>` is searched once, not once per question (that made such scans quadratic).
 */
export class NextChar {
  private asked = Infinity;
  private found = -1;
  /** `what`: one character, or a global regular expression matching one character. */
  constructor(
    private readonly text: string,
    private readonly what: string | RegExp,
  ) {}

  /** Offset of the next occurrence at or after `from`, or -1. */
  at(from: number): number {
    if (from >= this.asked && (this.found === -1 || this.found >= from)) return this.found;
    this.asked = from;
    if (typeof this.what === 'string') this.found = this.text.indexOf(this.what, from);
    else {
      this.what.lastIndex = from;
      this.found = this.what.exec(this.text)?.index ?? -1;
    }
    return this.found;
  }
}

/** Most offsets a {@link CharOffsets} keeps; past them it searches again for each question, keeping nothing more. */
const MAX_KEPT_OFFSETS = 1 << 16;

/**
 * The offsets of one character in a text, found once and shared by the rules that start from it (the links, the
 * link-reference definitions and the anchor links of a body all start at a `]`): each search of the text is made by
 * the first rule to need it, and the others read the offsets found. Questions may come in any order. At most
 * {@link MAX_KEPT_OFFSETS} offsets are kept (a body of `]` repeated would otherwise keep one number per character);
 * past the last one kept, each question searches again, as a plain `indexOf` would.
 */
export class CharOffsets {
  private readonly found: number[] = [];
  /** Every occurrence before this offset is in `found`. */
  private searchedTo = 0;
  private complete = false;

  constructor(
    private readonly text: string,
    private readonly char: string,
  ) {}

  /** Offset of the first occurrence at or after `from`, or -1: `text.indexOf(char, from)`. */
  at(from: number): number {
    const found = this.found;
    if (from < this.searchedTo || this.complete) {
      // The first kept offset at or after `from`.
      const i = lowerBound(found.length, (k) => found[k] < from);
      if (i < found.length) return found[i];
      if (this.complete) return -1;
    }
    if (found.length >= MAX_KEPT_OFFSETS) return this.text.indexOf(this.char, Math.max(from, this.searchedTo));
    // Search on from where the kept offsets end, keeping each one, up to the first at or after `from`.
    for (;;) {
      const at = this.text.indexOf(this.char, this.searchedTo);
      if (at < 0) {
        this.complete = true;
        this.searchedTo = this.text.length;
        return -1;
      }
      found.push(at);
      this.searchedTo = at + 1;
      if (at >= from) return at;
      if (found.length >= MAX_KEPT_OFFSETS) return this.text.indexOf(this.char, Math.max(from, this.searchedTo));
    }
  }
}

const OFFSETS_MEMO = {};

/** The {@link CharOffsets} of `char` in `text`, shared through `index` when it is the index of `text`. */
export function charOffsetsOf(index: TextIndex, text: string, char: string): CharOffsets {
  if (index.text !== text) return new CharOffsets(text, char);
  const byChar = index.memo(OFFSETS_MEMO, () => new Map<string, CharOffsets>());
  let offsets = byChar.get(char);
  if (!offsets) byChar.set(char, (offsets = new CharOffsets(text, char)));
  return offsets;
}

/** Offset of the first `needle` at or after `from` whose first character is found by `offsets` (of that character), or -1. */
export function indexFrom(offsets: CharOffsets, text: string, needle: string, from: number): number {
  for (let at = offsets.at(from); at >= 0; at = offsets.at(at + 1)) if (text.startsWith(needle, at)) return at;
  return -1;
}
