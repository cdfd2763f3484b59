import { ruleLevel, type RuleId } from './rules';
import type { Range, SkillDiagnostic, ValidationMode } from './types';

/** A finding before its severity is set by the mode. */
export interface Finding {
  rule: RuleId;
  message: string;
  range: Range;
  file?: string;
  data?: Record<string, unknown>;
}

/** Sets each finding's severity from the rule table for `mode`, dropping rules the mode turns off. */
export function applyMode(findings: readonly (Finding | SkillDiagnostic)[], mode: ValidationMode, out: SkillDiagnostic[] = []): SkillDiagnostic[] {
  for (const f of findings) {
    const level = ruleLevel(f.rule, mode);
    if (level === 'off') continue;
    const d: SkillDiagnostic = { rule: f.rule, severity: level, message: f.message, range: f.range };
    if (f.file !== undefined) d.file = f.file;
    if (f.data !== undefined) d.data = f.data;
    out.push(d);
  }
  return out;
}

/** Number of Unicode code points (what the reference validator counts as characters). */
export function codePointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}
