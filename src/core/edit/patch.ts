import { applyPatch, parsePatch, type StructuredPatch, type StructuredPatchHunk } from 'diff';
import { EditError } from './editErrors';
import { joinLines, splitLines, type EolStyle } from './textLines';
import { normalizeUnifiedDiff } from './unifiedDiff';

/** How context and removed lines are compared with the file. */
export type WhitespaceMode = 'exact' | 'trailing' | 'all';

/** Options for {@link applyUnifiedDiff}. */
export interface UnifiedDiffOptions {
  /** Context lines per hunk that may differ from the file (jsdiff `fuzzFactor`). Default 2. Removed lines must always match. */
  fuzzFactor?: number;
  /** 'trailing' (default) ignores trailing whitespace, 'all' any whitespace difference, 'exact' none. */
  whitespace?: WhitespaceMode;
  /** Name used in messages, e.g. "pdf/SKILL.md". */
  fileName?: string;
}

/** Where and how one hunk was applied. */
export interface HunkReport {
  /** 1-based hunk number in the diff. */
  index: number;
  header: string;
  /** Start line the hunk header claimed (old file). */
  expectedLine: number;
  /** Start line where it was actually applied, in the same numbering. */
  appliedLine: number;
  /** appliedLine - expectedLine: positive when the context was found further down. */
  offset: number;
  /** Number of context lines that did not match (0 = exact). */
  fuzz: number;
}

/** Result of applying a patch to a text: nothing is written, the caller decides (dry run or not). */
export interface PatchOutcome {
  text: string;
  changed: boolean;
  hunks: HunkReport[];
  eol: EolStyle;
  finalNewline: boolean;
  /** Human-readable notes for the tool result (offsets, fuzz used). */
  warnings: string[];
}

/** A hunk did not fit anywhere; carries the details shown in the message. */
export class PatchHunkError extends EditError {
  constructor(
    message: string,
    readonly hunkIndex: number,
    readonly expectedLines: string[],
    readonly actualLines: string[],
  ) {
    super('PATCH_HUNK_FAILED', message);
    this.name = 'PatchHunkError';
  }
}

interface WorkLine {
  content: string;
  /** Original ending, kept so untouched lines of mixed files keep theirs; undefined for new lines. */
  eol?: string;
}

const TAG_RE = /^\u0000(\d+)\u0001/;

function normalizer(mode: WhitespaceMode): (s: string) => string {
  if (mode === 'exact') return (s) => s;
  if (mode === 'all') return (s) => s.replace(/\s+/g, ' ').trim();
  return (s) => s.replace(/\s+$/, '');
}

/** Parses a one-file unified diff (after {@link normalizeUnifiedDiff}). */
export function parseSingleFileDiff(diff: string, fileName = 'the file'): StructuredPatch {
  let patches: StructuredPatch[];
  try {
    patches = parsePatch(normalizeUnifiedDiff(diff));
  } catch (err) {
    if (err instanceof EditError) throw err;
    throw new EditError('PATCH_PARSE', `Could not parse the unified diff for ${fileName}: ${(err as Error).message}. Send a diff with "@@" hunk headers and lines prefixed by " ", "-" or "+".`);
  }
  const withHunks = patches.filter((p) => p.hunks.length > 0);
  if (withHunks.length !== 1) {
    throw new EditError('PATCH_PARSE', `The diff for ${fileName} touches ${withHunks.length} files; send one patch per file (the target file is chosen by the "file" field, not by the diff headers).`);
  }
  return withHunks[0];
}

/**
 * Applies a unified diff to `text` with jsdiff, one hunk at a time so the report can say
 * where each hunk landed (offset) and how many context lines were tolerated (fuzz).
 * Line endings are preserved line by line (CRLF stays CRLF, new lines get the file's
 * dominant ending) and so is the final newline, unless the diff says otherwise with
 * "\ No newline at end of file". Pure: throws {@link PatchHunkError} and changes nothing
 * when a hunk does not fit.
 */
/**
 * Line comparisons one patch may cost (about a second on a loaded machine). An exact hunk anywhere in a
 * 30,000-line file needs about one comparison a line; only a fuzzy search that finds nothing comes near it.
 */
const MAX_LINE_COMPARISONS = 1_000_000;
const SEARCH_EXHAUSTED = new Error('fuzzy search budget exhausted');

export function applyUnifiedDiff(text: string, diff: string, options: UnifiedDiffOptions = {}): PatchOutcome {
  const fileName = options.fileName ?? 'the file';
  const maxFuzz = options.fuzzFactor ?? 2;
  if (!Number.isInteger(maxFuzz) || maxFuzz < 0) throw new EditError('PATCH_PARSE', `fuzzFactor must be a non-negative integer, got ${maxFuzz}.`);
  const norm = normalizer(options.whitespace ?? 'trailing');
  const patch = parseSingleFileDiff(diff, fileName);
  const src = splitLines(text);
  const explicitEofChange = patch.hunks.some((h) => h.lines.some((l) => l.startsWith('\\')));

  let work: WorkLine[] = src.lines.map((content, i) => ({ content, eol: src.eols[i] }));
  let finalNewline = src.finalNewline;
  let lineDelta = 0;
  let prevOffset = 0;
  let minIndex = 0;
  const reports: HunkReport[] = [];

  // One budget for the whole patch: jsdiff's fuzzy search tries every position with every choice of
  // mismatched context lines, so its cost grows with the file and exponentially with the fuzz (fuzz 10 over
  // 1,000 lines once took 114 s; the issue saw 16 s on 30,000 lines).
  let comparisons = 0;
  patch.hunks.forEach((hunk, k) => {
    const tagged = work.map((w, i) => `\u0000${i}\u0001${w.content}`).join('\n') + (finalNewline && work.length ? '\n' : '');
    const floor = minIndex;
    const compareLine = (_n: number, line: string | undefined, _op: string, patchContent: string): boolean => {
      if (++comparisons > MAX_LINE_COMPARISONS) throw SEARCH_EXHAUSTED;
      if (line === undefined) return false;
      const m = TAG_RE.exec(line);
      // only real lines after the previous hunk may match (the '' after a final newline is not a line)
      if (!m || Number(m[1]) < floor) return false;
      return norm(line.slice(m[0].length)) === norm(patchContent);
    };
    const searchStart = Math.max(1, hunk.oldStart + lineDelta + prevOffset);
    const single: StructuredPatch = { ...patch, hunks: [{ ...hunk, oldStart: searchStart, newStart: searchStart }] };
    let result: string | false = false;
    let fuzz = 0;
    try {
      for (; fuzz <= maxFuzz; fuzz++) {
        result = applyPatch(tagged, single, { fuzzFactor: fuzz, compareLine, autoConvertLineEndings: false });
        if (result !== false) break;
      }
    } catch (e) {
      if (e !== SEARCH_EXHAUSTED) throw e;
      throw hunkError(k, hunk, src.lines, prevOffset, fileName, maxFuzz, fuzz);
    }
    if (result === false) throw hunkError(k, hunk, src.lines, prevOffset, fileName, maxFuzz);

    const parts = result.split('\n');
    const endsWithNewline = parts.length > 0 && parts[parts.length - 1] === '' && result.length > 0;
    if (endsWithNewline) parts.pop();
    const next: { line: WorkLine; from: number }[] = parts.map((p) => {
      const m = TAG_RE.exec(p);
      return m ? { line: work[Number(m[1])], from: Number(m[1]) } : { line: { content: p }, from: -1 };
    });
    let first = 0;
    while (first < next.length && first < work.length && next[first].from === first) first++;
    let ri = next.length - 1;
    let wi = work.length - 1;
    while (ri >= first && wi >= first && next[ri].from === wi) {
      ri--;
      wi--;
    }
    const leadingContext = hunk.lines.findIndex((l) => l[0] === '-' || l[0] === '+');
    const expectedIndex = hunk.oldStart - 1 + lineDelta;
    const offset = first - Math.max(0, leadingContext) - expectedIndex;
    reports.push({ index: k + 1, header: hunkHeader(hunk), expectedLine: hunk.oldStart, appliedLine: hunk.oldStart + offset, offset, fuzz });
    lineDelta += next.length - work.length;
    prevOffset = offset;
    minIndex = ri + 1;
    work = next.map((n) => n.line);
    finalNewline = endsWithNewline || work.length === 0;
  });

  if (!explicitEofChange) finalNewline = src.finalNewline;
  const out = joinLines(
    work.map((w) => w.content),
    work.map((w) => w.eol),
    finalNewline,
    src.dominantEol,
  );
  const warnings = reports
    .filter((r) => r.offset !== 0 || r.fuzz !== 0)
    .map((r) => `Hunk ${r.index} applied at line ${r.appliedLine} (offset ${r.offset >= 0 ? '+' : ''}${r.offset} from its header${r.fuzz ? `, ${r.fuzz} context line(s) did not match` : ''}).`);
  return { text: out, changed: out !== text, hunks: reports, eol: splitLines(out).style, finalNewline, warnings };
}

function hunkHeader(h: StructuredPatchHunk): string {
  return `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`;
}

function numbered(lines: string[], firstLine: number): string[] {
  const width = String(firstLine + lines.length).length;
  return lines.map((l, i) => `${String(firstLine + i).padStart(width)} | ${l}`);
}

/** `stoppedAtFuzz`: the search ran out of its comparison budget while tolerating that many differing lines. */
function hunkError(k: number, hunk: StructuredPatchHunk, original: string[], prevOffset: number, fileName: string, maxFuzz: number, stoppedAtFuzz?: number): PatchHunkError {
  const expected = hunk.lines.filter((l) => l[0] === ' ' || l[0] === '-').map((l) => l.slice(1));
  const start = Math.max(0, hunk.oldStart - 1 + prevOffset - 2);
  const end = Math.min(original.length, hunk.oldStart - 1 + prevOffset + Math.max(hunk.oldLines, 1) + 2);
  const actual = original.slice(start, end);
  const probe = hunk.lines.find((l) => l[0] === '-' && l.trim().length > 1) ?? hunk.lines.find((l) => l[0] === ' ' && l.trim().length > 0);
  let hint = '';
  if (probe) {
    const needle = probe.slice(1).trim();
    const found = original.flatMap((l, i) => (l.trim() === needle ? [i + 1] : []));
    hint = found.length
      ? `\nThe line "${needle}" occurs at line(s) ${found.slice(0, 5).join(', ')} of the current file.`
      : `\nThe line "${needle}" does not occur in the current file at all.`;
  }
  const how =
    stoppedAtFuzz === undefined
      ? `does not match the file, even allowing ${maxFuzz} differing context line(s) and any offset`
      : `was not found within ${MAX_LINE_COMPARISONS.toLocaleString('en-US')} line comparisons (the search stopped while allowing ${stoppedAtFuzz} of the ${maxFuzz} differing context line(s) asked for; use less fuzz)`;
  const message =
    `Hunk ${k + 1} (${hunkHeader(hunk)}) of the patch for ${fileName} ${how}. Nothing was changed.\n` +
    `Expected (from the patch):\n${numbered(expected, hunk.oldStart).join('\n') || '  (no lines)'}\n` +
    `Actual (lines ${start + 1}-${end} of the file):\n${numbered(actual, start + 1).join('\n') || '  (end of file)'}` +
    hint +
    '\nRe-inspect the file (runSkill inspect) for its current content and line numbers, then regenerate the patch against it, or use structured line edits.';
  return new PatchHunkError(message, k + 1, expected, actual);
}
