// `agent-skills eval` in the machine formats of `validate`: each failed request (and each warning of the trigger
// file) becomes a finding at its place in the trigger file, written by validate's SARIF and GitHub writers.
import * as path from 'node:path';
import { positionOf, triggerFailureMessage, type TriggerReport } from '../../core/evals';
import type { EvalTriggerSet } from './evalTarget';
import type { SarifRule, ValidateResult } from './validateFormats';

/** The rule of a request that did not do what it should. */
export const TRIGGER_FAILED_RULE = 'trigger-failed';

/** The rules eval's findings use, for SARIF's rule list. */
export const EVAL_SARIF_RULES: readonly SarifRule[] = [
  {
    id: TRIGGER_FAILED_RULE,
    description: 'A request of the trigger set does not select the skill when it should, or selects it when it should not.',
    doc: 'The offline judge asks the skill index the runtime uses (what find_skills answers): a request selects the skill when the skill is its first match with a confidence of at least the find_skills threshold. Change the description so that it says what the requests that should trigger ask for, and what the skill is not for.',
    level: 'error',
  },
  ...['trigger-duplicate', 'trigger-balance', 'trigger-names-skill', 'trigger-field', 'trigger-size'].map((id) => ({
    id,
    description: `A warning of the trigger-set checks (${id}).`,
    doc: 'The same check the language server runs on evals/trigger-queries.json; the message says what to change.',
    level: 'warning' as const,
  })),
];

/** The run as one `validate` result located in the trigger file: failed requests as errors, file warnings as warnings. */
export function evalAsValidateResult(report: TriggerReport, set: EvalTriggerSet, display: string): ValidateResult {
  const diagnostics: ValidateResult['diagnostics'] = [];
  report.results.forEach((r, i) => {
    const message = triggerFailureMessage(report, r, i + 1);
    if (!message) return;
    // The request's place: results are in the order of the requests judged.
    const at = positionOf(set.text, set.offsets[set.queries.findIndex((q) => q.line === r.line && q.query === r.query)] ?? 0);
    diagnostics.push({ rule: TRIGGER_FAILED_RULE, severity: 'error', message, range: { start: at, end: at } });
  });
  for (const f of set.warnings) diagnostics.push({ rule: f.rule, severity: f.severity, message: f.message, range: { start: positionOf(set.text, f.offset), end: positionOf(set.text, f.offset + f.length) } });
  return { path: display, dir: path.dirname(set.file), fileName: path.basename(set.file), name: report.skill, valid: report.results.every((r) => r.passed), diagnostics };
}
