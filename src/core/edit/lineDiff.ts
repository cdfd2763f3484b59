import { createTwoFilesPatch, structuredPatch } from 'diff';
import { splitLines } from './textLines';

/** Options for {@link renderLineDiff}. */
export interface LineDiffOptions {
  /** Unchanged lines shown around each change. Default 3. */
  context?: number;
}

/** A before/after diff rendered for people and models. */
export interface LineDiff {
  /**
   * One block per hunk: a "@@ -a,b +c,d @@" header, then one row per line:
   * `  12 | -old` (old line number), `  12 | +new` and `  13 |  same` (new line numbers).
   * "(no changes)" when the texts are equal.
   */
  text: string;
  added: number;
  removed: number;
  hunks: number;
  identical: boolean;
  /** Changes the rows cannot show, e.g. line endings or the final newline. */
  notes: string[];
}

function lf(text: string): string {
  const s = splitLines(text);
  return s.lines.length ? s.lines.join('\n') + '\n' : '';
}

/** Renders the difference between two texts with line numbers (line endings are compared separately and reported in `notes`). */
export function renderLineDiff(before: string, after: string, options: LineDiffOptions = {}): LineDiff {
  const a = splitLines(before);
  const b = splitLines(after);
  const notes: string[] = [];
  if (a.style !== b.style && a.style !== 'none' && b.style !== 'none') notes.push(`Line endings changed from ${a.style} to ${b.style}.`);
  if (a.finalNewline !== b.finalNewline) notes.push(b.finalNewline ? 'A final newline was added.' : 'The final newline was removed.');
  const patch = structuredPatch('before', 'after', lf(before), lf(after), undefined, undefined, { context: options.context ?? 3 });
  let added = 0;
  let removed = 0;
  const width = Math.max(4, String(Math.max(a.lines.length, b.lines.length)).length);
  const pad = (n: number): string => String(n).padStart(width);
  const blocks = patch.hunks.map((h) => {
    const rows = [`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`];
    let oldNo = h.oldStart;
    let newNo = h.newStart;
    for (const line of h.lines) {
      const sign = line[0];
      const body = line.slice(1);
      if (sign === '-') {
        rows.push(`${pad(oldNo++)} | -${body}`);
        removed++;
      } else if (sign === '+') {
        rows.push(`${pad(newNo++)} | +${body}`);
        added++;
      } else if (sign === ' ') {
        rows.push(`${pad(newNo)} |  ${body}`);
        oldNo++;
        newNo++;
      }
    }
    return rows.join('\n');
  });
  const identical = before === after;
  const text = blocks.length ? blocks.join('\n') : identical ? '(no changes)' : '(no line changes)';
  return { text: notes.length ? `${text}\n${notes.join('\n')}` : text, added, removed, hunks: blocks.length, identical, notes };
}

/** Options for {@link contentWithLineNumbers}. */
export interface NumberingOptions {
  /** Number of the first line (for a chunk of a larger text). Default 1. */
  startLine?: number;
  /** Minimum width of the number column. Default 4. */
  width?: number;
}

/** Prefixes every line with its number: `   1 | first line`. The empty text gives the empty string. */
export function contentWithLineNumbers(text: string, options: NumberingOptions = {}): string {
  const { lines } = splitLines(text);
  const start = options.startLine ?? 1;
  const width = Math.max(options.width ?? 4, String(start + lines.length - 1).length);
  return lines.map((l, i) => `${String(start + i).padStart(width)} | ${l}`).join('\n');
}

/** A plain unified diff (for a stale-ref error: "here is what changed since your version"). */
export function unifiedDiffOf(before: string, after: string, fileName: string, context = 3): string {
  return createTwoFilesPatch(`a/${fileName}`, `b/${fileName}`, lf(before), lf(after), undefined, undefined, { context });
}
