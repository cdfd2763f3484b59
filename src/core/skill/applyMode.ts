import type { Finding } from './findings';
import type { RuleConfig } from './ruleConfig';
import { ruleLevel, type RuleLevel } from './rules';
import type { SkillDiagnostic, ValidationMode } from './skillTypes';

/**
 * The level of a rule in `mode` under `config`. Strict mode is the reference validator: a rule that is an
 * error there stays one whatever the configuration says, and no other rule becomes one (at most a warning),
 * so `--strict` verdicts never depend on a configuration.
 */
export function configuredLevel(rule: string, mode: ValidationMode, config?: RuleConfig): RuleLevel {
  const table = ruleLevel(rule, mode);
  const set = config?.rules[rule]?.level;
  if (set === undefined) return table;
  if (mode === 'strict') return table === 'error' ? 'error' : set === 'error' ? 'warning' : set;
  return set;
}

/**
 * Sets each finding's severity from the rule table for `mode` and the configuration (see {@link configuredLevel}),
 * dropping rules that are off.
 */
export function applyMode(findings: readonly (Finding | SkillDiagnostic)[], mode: ValidationMode, out: SkillDiagnostic[] = [], config?: RuleConfig): SkillDiagnostic[] {
  for (const f of findings) {
    const level = config ? configuredLevel(f.rule, mode, config) : ruleLevel(f.rule, mode);
    if (level === 'off') continue;
    const d: SkillDiagnostic = { rule: f.rule, severity: level, message: f.message, range: f.range };
    if (f.file !== undefined) d.file = f.file;
    if (f.data !== undefined) d.data = f.data;
    out.push(d);
  }
  return out;
}
