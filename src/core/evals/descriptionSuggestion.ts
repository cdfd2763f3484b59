// "Suggest a Better Description": what the model is asked after a trigger run with failures, and how its answer is
// read. Only the train split's requests are shown to the model: the validation split stays held out, so a rerun of
// it after the change shows whether the new description generalised rather than fitted the test.
import { jsonOfAnswer, ModelAnswerError, type SkillBrief } from './triggerDrafts';
import type { TriggerReport } from './triggerResults';

/** The longest description accepted (the Agent Skills specification's limit). */
export const MAX_DESCRIPTION_CHARS = 1024;

/** The request for a revised description, from the train split's results of a report. */
export function suggestPrompt(skill: SkillBrief, report: TriggerReport): string {
  const train = report.results.filter((r) => r.split === 'train');
  const line = (r: TriggerReport['results'][number]) =>
    `- [${r.passed ? 'pass' : 'FAIL'}] should ${r.shouldTrigger ? '' : 'NOT '}select it, selected in ${Math.round(r.triggerRate * 100)}%${r.trials.find((t) => t.chosen)?.chosen ? ` (chose ${r.trials.find((t) => t.chosen)?.chosen} instead)` : ''}: ${r.query}`;
  return [
    `An agent picks Agent Skills by their description. The skill "${skill.name}" is picked when it should not be, or not picked when it should be, for some of the requests below. Write a better description for it.`,
    '',
    'Rules: say what the skill does and when to use it (the kinds of request, files and tools), in the third person; do not list the test requests or quote them; at most 1024 characters; plain text, one paragraph.',
    '',
    'Answer with only a JSON object: {"description": "<the new description>"}.',
    '',
    `Current description: ${skill.description}`,
    '',
    ...(skill.body?.trim() ? ['Its instructions (start):', skill.body.slice(0, 4000), ''] : []),
    `Results (${report.judge === 'model' ? `${report.trialsPerRequest} attempts per request` : 'the skill index'}):`,
    ...train.map(line),
  ].join('\n');
}

/** Reads the proposed description: a JSON object with one non-empty `description` within the limit. */
export function parseSuggestedDescription(answer: string): string {
  let value: unknown;
  try {
    value = JSON.parse(jsonOfAnswer(answer, '{'));
  } catch (e) {
    if (e instanceof ModelAnswerError) throw e;
    throw new ModelAnswerError(`The model's answer is not valid JSON (${(e as Error).message}). Run the command again.`);
  }
  const d = typeof value === 'object' && value !== null ? (value as { description?: unknown }).description : undefined;
  if (typeof d !== 'string' || !d.trim()) throw new ModelAnswerError('The model\'s answer has no "description" text. Run the command again.');
  const text = d.replace(/\s+/g, ' ').trim();
  if (text.length > MAX_DESCRIPTION_CHARS) throw new ModelAnswerError(`The proposed description is ${text.length} characters, over the ${MAX_DESCRIPTION_CHARS} a description may have. Run the command again.`);
  return text;
}

/** The failures of a report, for deciding whether a suggestion is worth asking for. */
export function failuresOf(report: TriggerReport): number {
  return report.results.filter((r) => !r.passed).length;
}
