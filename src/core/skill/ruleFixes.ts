import { getRule } from './rules';
import { TextIndex } from './textIndex';
import type { Range, SkillDiagnostic } from './skillTypes';

/** One text replacement in SKILL.md. */
export interface SkillTextEdit {
  range: Range;
  newText: string;
}

/** A rule's own fix, carried on a finding as `data.fix`. */
export interface RuleFix {
  title: string;
  edits: SkillTextEdit[];
}

/** The fix a diagnostic carries, if any. */
export function fixOf(d: SkillDiagnostic): RuleFix | undefined {
  const f = d.data?.fix as Partial<RuleFix> | undefined;
  return f && typeof f.title === 'string' && Array.isArray(f.edits) ? (f as RuleFix) : undefined;
}

/** What {@link applySafeFixes} did. */
export interface SafeFixResult {
  text: string;
  /** The fixes applied, in file order; fixes whose edits overlap an earlier one are left for a next run. */
  applied: { rule: string; title: string; line: number }[];
}

/**
 * Applies every safe fix (the rule's metadata says `fix.safe`) of SKILL.md's findings to `text`, at most
 * once per edit range, never two overlapping edits. Pure: the caller writes the result.
 */
export function applySafeFixes(text: string, diagnostics: readonly SkillDiagnostic[]): SafeFixResult {
  const index = new TextIndex(text);
  const chosen: { start: number; end: number; newText: string }[] = [];
  const applied: SafeFixResult['applied'] = [];
  for (const d of diagnostics) {
    if ((d.file !== undefined && d.file !== 'SKILL.md') || !getRule(d.rule)?.fix?.safe) continue;
    const fix = fixOf(d);
    if (!fix) continue;
    const edits = fix.edits.map((e) => ({ start: index.offsetAt(e.range.start), end: index.offsetAt(e.range.end), newText: e.newText }));
    const clash = edits.some((e) => chosen.some((c) => (e.start < c.end && c.start < e.end) || (e.start === c.start && e.end === c.end)));
    if (clash) continue;
    chosen.push(...edits);
    applied.push({ rule: d.rule, title: fix.title, line: d.range.start.line + 1 });
  }
  chosen.sort((a, b) => b.start - a.start);
  let out = text;
  for (const e of chosen) out = out.slice(0, e.start) + e.newText + out.slice(e.end);
  return { text: out, applied };
}
