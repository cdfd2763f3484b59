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
