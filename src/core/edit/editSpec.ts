import { z } from 'zod';
import { applyLineEdits, type LineEditReport } from './lineEdits';
import { applyUnifiedDiff, type HunkReport } from './patch';
import type { EolStyle } from './textLines';
import type { VersionRef } from './versionRef';

/** zod schema for a version ref coming from tool input (e.g. `expectedVersionRef`). */
export const versionRefSchema = z
  .string()
  .regex(/^sha256:[0-9a-f]{64}$/, 'a version ref looks like "sha256:" followed by 64 hex digits; copy it from runSkill inspect')
  .transform((s) => s as VersionRef);

/** zod schema of one structured line edit (see {@link LineEdit}). */
export const lineEditSchema = z.object({
  op: z.enum(['replace', 'insert', 'delete']).optional().describe('Default: replace, or insert when endLine = startLine - 1.'),
  startLine: z.number().int().min(1).describe('1-based line in the file as last inspected.'),
  endLine: z.number().int().min(0).optional().describe('Last line (inclusive) to replace or delete; defaults to startLine.'),
  newText: z.string().optional().describe('Replacement or inserted lines; "" deletes.'),
});

/** zod schema of a patch request: a unified diff or structured line edits. */
export const patchSpecSchema = z.discriminatedUnion('format', [
  z.object({
    format: z.literal('unifiedDiff'),
    diff: z.string().min(1).describe('A unified diff of ONE file, with @@ hunk headers.'),
    fuzzFactor: z.number().int().min(0).max(10).optional().describe('Context lines per hunk allowed to differ (default 2).'),
  }),
  z.object({
    format: z.literal('lineEdits'),
    edits: z.array(lineEditSchema).min(1),
  }),
]);

/** A parsed patch request. */
export type PatchSpec = z.infer<typeof patchSpecSchema>;

/** Result of {@link applyPatchSpec}: the new text and what was done; nothing is written. */
export interface PatchSpecOutcome {
  text: string;
  changed: boolean;
  eol: EolStyle;
  finalNewline: boolean;
  /** Present for unified diffs. */
  hunks?: HunkReport[];
  /** Present for line edits. */
  edits?: LineEditReport[];
  warnings: string[];
}

/**
 * Applies either kind of patch to `text`. Pure, so a dry run is just "don't write the
 * result". Throws EditError (PATCH_PARSE, PATCH_HUNK_FAILED, LINE_EDIT_INVALID) with a
 * message that says what to do next.
 */
export function applyPatchSpec(text: string, spec: PatchSpec, fileName = 'the file'): PatchSpecOutcome {
  if (spec.format === 'unifiedDiff') {
    const r = applyUnifiedDiff(text, spec.diff, { fuzzFactor: spec.fuzzFactor, fileName });
    return { text: r.text, changed: r.changed, eol: r.eol, finalNewline: r.finalNewline, hunks: r.hunks, warnings: r.warnings };
  }
  const r = applyLineEdits(text, spec.edits, fileName);
  return { text: r.text, changed: r.changed, eol: r.eol, finalNewline: r.finalNewline, edits: r.edits, warnings: [] };
}
