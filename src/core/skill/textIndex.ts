import { lowerBound } from '../text/lowerBound';
import { SIMD_MIN_UNITS, simdUnits } from '../text/simdUnits';
import type { Position, Range } from './skillTypes';

/**
 * Positions up to this line or offset are found line by line (the frontmatter of a long SKILL.md does not make the
 * whole body scanned); past them, every line start at once.
 */
const NEAR_LINES = 64;
const NEAR_OFFSET = 4096;

/**
 * Maps between offsets and line/character positions of one text. Line starts are found lazily,
 * only as far as a caller asks, so indexing the frontmatter of a long SKILL.md does not scan its body.
 */
export class TextIndex {
  private lineStarts: number[] = [0];
  /** True once every line start of the text is known. */
  private complete = false;

  /** Results derived from the text (see {@link memo}); several rules and the reference extractor share them. */
  private memos?: Map<object, unknown>;

  constructor(readonly text: string) {}

  /**
   * The value `compute` derives from this text, computed once per `key`: the body rules and the reference
   * extractor both need the fenced blocks, and the language server hands them the same index.
   */
  memo<T>(key: object, compute: () => T): T {
    const memos = (this.memos ??= new Map());
    if (memos.has(key)) return memos.get(key) as T;
    const value = compute();
    memos.set(key, value);
    return value;
  }

  /** Finds line starts until `line` is known or the text ends. */
  private scanToLine(line: number): void {
    const starts = this.lineStarts;
    if (!this.complete && line > NEAR_LINES) this.scanAll();
    while (!this.complete && starts.length <= line) this.scanOne();
  }

  /** Finds line starts until the line holding `offset` is known. */
  private scanToOffset(offset: number): void {
    const starts = this.lineStarts;
    if (!this.complete && offset > NEAR_OFFSET) this.scanAll();
    while (!this.complete && starts[starts.length - 1] <= offset) this.scanOne();
  }

  /** Finds every line start: on a long text eight code units at a time (simdUnits), else line by line. */
  private scanAll(): void {
    const units = this.text.length >= SIMD_MIN_UNITS ? simdUnits(this.text) : null;
    if (units) {
      this.lineStarts = units.lineStarts();
      this.complete = true;
    }
    while (!this.complete) this.scanOne();
  }

  private scanOne(): void {
    const starts = this.lineStarts;
    const nl = this.text.indexOf('\n', starts[starts.length - 1]);
    if (nl < 0) this.complete = true;
    else starts.push(nl + 1);
  }

  get lineCount(): number {
    if (!this.complete) this.scanAll();
    return this.lineStarts.length;
  }

  /** Every line start offset (scans the whole text once). */
  allLineStarts(): readonly number[] {
    void this.lineCount;
    return this.lineStarts;
  }

  /** True when the text has a line numbered `line` (0-based), without scanning further than needed. */
  hasLine(line: number): boolean {
    this.scanToLine(line);
    return line >= 0 && line < this.lineStarts.length;
  }

  positionAt(offset: number): Position {
    const o = Math.max(0, Math.min(offset, this.text.length));
    this.scanToOffset(o);
    const starts = this.lineStarts;
    // The last line starting at or before the offset (the first line starts at 0, so there is one).
    const line = lowerBound(starts.length, (i) => starts[i] <= o) - 1;
    return { line, character: o - starts[line] };
  }

  offsetAt(pos: Position): number {
    if (!this.hasLine(pos.line)) return this.text.length;
    const start = this.lineStarts[Math.max(0, pos.line)];
    return Math.min(start + Math.max(0, pos.character), this.lineEnd(pos.line));
  }

  rangeOf(start: number, end: number): Range {
    return { start: this.positionAt(start), end: this.positionAt(end) };
  }

  /** Offset where a line starts (the text's length past the last line). */
  lineStart(line: number): number {
    this.scanToLine(line);
    return line < this.lineStarts.length ? this.lineStarts[Math.max(0, line)] : this.text.length;
  }

  /** Offset where the line holding `offset` starts. */
  lineStartOf(offset: number): number {
    return this.lineStart(this.positionAt(offset).line);
  }

  /** Offset of the end of a line, before its line break. */
  lineEnd(line: number): number {
    this.scanToLine(line + 1);
    const starts = this.lineStarts;
    const next = line + 1 < starts.length ? starts[line + 1] - 1 : this.text.length;
    return next > 0 && this.text.charCodeAt(next - 1) === 13 && next - 1 >= starts[line] ? next - 1 : next;
  }

  lineText(line: number): string {
    this.scanToLine(line);
    return this.text.slice(this.lineStarts[line], this.lineEnd(line));
  }

  /** The whole line as a range (without its line break). */
  lineRange(line: number): Range {
    this.scanToLine(line);
    return this.rangeOf(this.lineStarts[line], this.lineEnd(line));
  }
}

export function pos(line: number, character: number): Position {
  return { line, character };
}

export function range(startLine: number, startChar: number, endLine: number, endChar: number): Range {
  return { start: pos(startLine, startChar), end: pos(endLine, endChar) };
}
