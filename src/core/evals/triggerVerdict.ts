// One sentence per failed request, for surfaces that show a finding rather than the report (SARIF, GitHub
// annotations, a diagnostic on the trigger file): what happened and what to change. Plain text (callers escape it
// for their medium).
import { MIN_MATCH_CONFIDENCE } from '../index/matchConfidence';
import { insteadNames } from './triggerReportMarkdown';
import type { TriggerReport, TriggerRequestResult } from './triggerResults';

/** Why request `n` (1-based) of the run's trigger set failed, and the fix; undefined when it passed. */
export function triggerFailureMessage(run: Pick<TriggerReport, 'skill' | 'judge'>, r: TriggerRequestResult, n: number): string | undefined {
  if (r.passed) return undefined;
  const skill = run.skill;
  const q = JSON.stringify(r.query.length > 120 ? `${r.query.slice(0, 120)}…` : r.query);
  const triggered = r.trials.filter((t) => t.triggered).length;
  if (run.judge === 'model') {
    const others = insteadNames(r);
    const chose = others.length ? `; chose ${others.map((o) => `"${o.name}" ${o.count} time${o.count === 1 ? '' : 's'}`).join(', ')}` : '';
    return r.shouldTrigger
      ? `Request ${n} ${q} should select "${skill}": it did in ${triggered} of ${r.trials.length} trials${chose}. Say in the description what this request asks for, in the words users use.`
      : `Request ${n} ${q} should not select "${skill}", but did in ${triggered} of ${r.trials.length} trials. Say in the description what the skill is not for, or narrow its wording.`;
  }
  if (!r.shouldTrigger) {
    return `Request ${n} ${q} should not select "${skill}", but the index ranks it first with confidence ${r.confidence?.toFixed(2)} (a match from ${MIN_MATCH_CONFIDENCE}). Say in the description what the skill is not for, or narrow the words this request shares with it.`;
  }
  if (r.rank === undefined) return `Request ${n} ${q} should select "${skill}", but no word of it matches the skill${r.first ? ` ("${r.first}" ranks first)` : ''}. Use this request's words (the task, file types, tools) in the description.`;
  if (r.rank === 1) return `Request ${n} ${q} should select "${skill}": it ranks first, but with confidence ${r.confidence?.toFixed(2)}, under the ${MIN_MATCH_CONFIDENCE} that counts as a match. Use more of this request's words (the task, file types, tools) in the description.`;
  return `Request ${n} ${q} should select "${skill}", but "${r.first}" ranks first ("${skill}" ranks ${r.rank}). Use this request's words in the description, and say how the skill differs from "${r.first}".`;
}
