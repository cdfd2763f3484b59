/**
 * Line model shared by the patch engine and the line-numbered diff: a text is a list of
 * lines plus the ending after each one, so CRLF, LF and mixed files round-trip exactly.
 */

/** Line ending style of a text. */
export type EolStyle = 'lf' | 'crlf' | 'mixed' | 'none';

/** A text split into lines. `eols[i]` is the ending after `lines[i]` ('' only after the last line when the text has no final newline). */
export interface SplitText {
  lines: string[];
  eols: string[];
  /** True when the text ends with a line ending (or is empty). */
  finalNewline: boolean;
  style: EolStyle;
  /** The ending to use for new lines: CRLF when the file mostly uses CRLF, LF otherwise. */
  dominantEol: '\n' | '\r\n';
}

/** Splits on LF and CRLF (a lone CR stays part of the line). The empty text has no lines. */
export function splitLines(text: string): SplitText {
  const lines: string[] = [];
  const eols: string[] = [];
  let crlf = 0;
  let lf = 0;
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) break;
    const isCrlf = nl > start && text.charCodeAt(nl - 1) === 13;
    lines.push(text.slice(start, isCrlf ? nl - 1 : nl));
    eols.push(isCrlf ? '\r\n' : '\n');
    if (isCrlf) crlf++;
    else lf++;
    start = nl + 1;
  }
  const finalNewline = start === text.length;
  if (!finalNewline) {
    lines.push(text.slice(start));
    eols.push('');
  }
  const style: EolStyle = crlf && lf ? 'mixed' : crlf ? 'crlf' : lf ? 'lf' : 'none';
  return { lines, eols, finalNewline, style, dominantEol: crlf > lf ? '\r\n' : '\n' };
}

/** Joins lines with the given endings; a missing or empty ending (except after the last line) becomes `fallbackEol`. */
export function joinLines(lines: readonly string[], eols: readonly (string | undefined)[], finalNewline: boolean, fallbackEol: string): string {
  let out = '';
  for (let i = 0; i < lines.length; i++) {
    const last = i === lines.length - 1;
    out += lines[i];
    if (last && !finalNewline) break;
    out += eols[i] || fallbackEol;
  }
  return out;
}

/**
 * Splits replacement text given by a caller into lines: "a\nb" and "a\nb\n" are both two
 * lines, "" is no line at all, "\n" is one empty line. CRLF in the input is accepted.
 */
export function textToLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
