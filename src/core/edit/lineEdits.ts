import { EditError } from './editErrors';
import { joinLines, splitLines, textToLines, type EolStyle } from './textLines';

/**
 * One structured edit, in 1-based line numbers of the ORIGINAL text (all edits of a call
 * refer to the same original, they are applied bottom-up so numbers never shift).
 * - replace: lines startLine..endLine (inclusive) become `newText` (endLine defaults to startLine);
 * - insert: `newText` goes before line startLine (startLine = line count + 1 appends);
 *   also inferred when endLine === startLine - 1;
 * - delete: lines startLine..endLine are removed (same as replace with empty newText).
 * `newText` is split into lines: "a\nb" and "a\nb\n" are two lines, "" none, "\n" one empty line.
 */
export interface LineEdit {
  op?: 'replace' | 'insert' | 'delete';
  startLine: number;
  endLine?: number;
  newText?: string;
}

/** What one edit did, for the tool result. */
export interface LineEditReport {
  index: number;
  op: 'replace' | 'insert' | 'delete';
  startLine: number;
  endLine: number;
  removedLines: number;
  insertedLines: number;
}

/** Result of {@link applyLineEdits}. */
export interface LineEditOutcome {
  text: string;
  changed: boolean;
  edits: LineEditReport[];
  eol: EolStyle;
  finalNewline: boolean;
}

interface Resolved {
  index: number;
  op: LineEditReport['op'];
  /** 0-based first original line removed (or insertion point). */
  from: number;
  /** 0-based exclusive end; from === to for inserts. */
  to: number;
  lines: string[];
}

function invalid(fileName: string, index: number, what: string): EditError {
  return new EditError('LINE_EDIT_INVALID', `Edit ${index + 1} for ${fileName}: ${what}. Line numbers refer to the file as last inspected (runSkill inspect shows them); fix the edit and retry.`);
}

function resolve(edit: LineEdit, index: number, lineCount: number, fileName: string): Resolved {
  const { startLine } = edit;
  if (!Number.isInteger(startLine) || startLine < 1) throw invalid(fileName, index, `startLine must be an integer >= 1, got ${startLine}`);
  if (edit.endLine !== undefined && !Number.isInteger(edit.endLine)) throw invalid(fileName, index, `endLine must be an integer, got ${edit.endLine}`);
  const op = edit.op ?? (edit.endLine === startLine - 1 ? 'insert' : 'replace');
  if (op === 'insert') {
    if (edit.endLine !== undefined && edit.endLine !== startLine - 1) throw invalid(fileName, index, `an insert takes only startLine (the line to insert before); endLine ${edit.endLine} is not allowed`);
    if (startLine > lineCount + 1) throw invalid(fileName, index, `cannot insert before line ${startLine}: the file has ${lineCount} line(s), use startLine ${lineCount + 1} to append`);
    if (!edit.newText) throw invalid(fileName, index, 'an insert needs a non-empty newText');
    return { index, op, from: startLine - 1, to: startLine - 1, lines: textToLines(edit.newText) };
  }
  const endLine = edit.endLine ?? startLine;
  if (endLine < startLine) throw invalid(fileName, index, `endLine ${endLine} is before startLine ${startLine}`);
  if (endLine > lineCount) throw invalid(fileName, index, `lines ${startLine}-${endLine} are out of range: the file has ${lineCount} line(s)`);
  if (op === 'delete' && edit.newText) throw invalid(fileName, index, 'a delete takes no newText; use op "replace" to change lines');
  return { index, op, from: startLine - 1, to: endLine, lines: op === 'delete' ? [] : textToLines(edit.newText ?? '') };
}

function describe(r: Resolved): string {
  return r.op === 'insert' ? `insert before line ${r.from + 1}` : `${r.op} lines ${r.from + 1}-${r.to}`;
}

/**
 * Applies structured line edits to `text` (pure: returns the new text and a report).
 * Edits are validated first (range, overlap) and then applied bottom-up. Line endings
 * and the final newline of the file are preserved; inserted lines use the file's
 * dominant ending.
 */
export function applyLineEdits(text: string, edits: readonly LineEdit[], fileName = 'the file'): LineEditOutcome {
  if (edits.length === 0) throw new EditError('LINE_EDIT_INVALID', `No edits given for ${fileName}; send at least one { startLine, endLine, newText }.`);
  const src = splitLines(text);
  const resolved = edits.map((e, i) => resolve(e, i, src.lines.length, fileName));
  const sorted = [...resolved].sort((a, b) => a.from - b.from || a.to - b.to);
  for (let i = 1; i < sorted.length; i++) {
    const a = sorted[i - 1];
    const b = sorted[i];
    const bothInsertSamePlace = a.from === a.to && b.from === b.to && a.from === b.from;
    // an insert at the start of a range is fine (it goes before it); anything reaching into a range is not
    if (bothInsertSamePlace || b.from < a.to || (a.from === b.from && b.from < b.to && a.from < a.to)) {
      throw invalid(fileName, b.index, `it overlaps edit ${a.index + 1} (${describe(a)} vs ${describe(b)}); merge them into one edit`);
    }
  }
  const lines = [...src.lines];
  const eols: (string | undefined)[] = [...src.eols];
  for (const r of [...sorted].reverse()) {
    lines.splice(r.from, r.to - r.from, ...r.lines);
    eols.splice(r.from, r.to - r.from, ...r.lines.map(() => undefined));
  }
  // appending to a file without a final newline: the old last line now needs an ending
  const finalNewline = src.finalNewline || lines.length === 0;
  const out = joinLines(lines, eols, finalNewline, src.dominantEol);
  return {
    text: out,
    changed: out !== text,
    edits: resolved.map((r) => ({ index: r.index + 1, op: r.op, startLine: r.from + 1, endLine: r.op === 'insert' ? r.from : r.to, removedLines: r.to - r.from, insertedLines: r.lines.length })),
    eol: splitLines(out).style,
    finalNewline,
  };
}
