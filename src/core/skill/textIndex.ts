import type { Position, Range } from './types';

/** Maps between offsets and line/character positions of one text. */
export class TextIndex {
  private readonly lineStarts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      if (text.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
    }
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  positionAt(offset: number): Position {
    const o = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: o - this.lineStarts[lo] };
  }

  offsetAt(pos: Position): number {
    if (pos.line >= this.lineStarts.length) return this.text.length;
    const start = this.lineStarts[Math.max(0, pos.line)];
    return Math.min(start + Math.max(0, pos.character), this.lineEnd(pos.line));
  }

  rangeOf(start: number, end: number): Range {
    return { start: this.positionAt(start), end: this.positionAt(end) };
  }

  /** Offset of the end of a line, before its line break. */
  lineEnd(line: number): number {
    const next = line + 1 < this.lineStarts.length ? this.lineStarts[line + 1] - 1 : this.text.length;
    return next > 0 && this.text.charCodeAt(next - 1) === 13 && next - 1 >= this.lineStarts[line] ? next - 1 : next;
  }

  lineText(line: number): string {
    return this.text.slice(this.lineStarts[line], this.lineEnd(line));
  }

  /** The whole line as a range (without its line break). */
  lineRange(line: number): Range {
    return this.rangeOf(this.lineStarts[line], this.lineEnd(line));
  }
}

export function pos(line: number, character: number): Position {
  return { line, character };
}

export function range(startLine: number, startChar: number, endLine: number, endChar: number): Range {
  return { start: pos(startLine, startChar), end: pos(endLine, endChar) };
}
