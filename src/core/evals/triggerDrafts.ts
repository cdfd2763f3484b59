// "Draft Trigger Requests": what the model is asked (should and near-miss should-not requests from the SKILL.md and
// the skills nearest to it in the catalog), how its answer is read (strictly: one bounded JSON array that passes the
// trigger file's own checks), and the file written (about 40% of each kind held out as the validation split).
import { checkTriggerQueries, namesSkill, triggerQueryKey, type TriggerQuery } from './checkTriggerQueries';
import { TRIGGER_QUERIES_FILE } from './triggerFields';

/** The longest model answer read (twenty requests are about 3 KB). */
export const MAX_MODEL_ANSWER_CHARS = 64 * 1024;
/** The most SKILL.md body characters put in the drafting prompt. */
const MAX_BODY_CHARS = 6000;
/** Share of each kind (should / should not) held out for validation, as the agentskills.io guide suggests. */
export const VALIDATION_SHARE = 0.4;

/** A skill as the prompts describe it. */
export interface SkillBrief {
  name: string;
  description: string;
  body?: string;
}

/** The drafting request: what to write, the skill, and its neighbours (whose jobs make the near misses). */
export function draftPrompt(skill: SkillBrief, neighbours: readonly SkillBrief[], count = 20): string {
  const should = Math.ceil(count / 2);
  const lines = [
    `You write trigger tests for an Agent Skill: realistic requests a user might type to a coding agent, used to check whether the agent picks the skill "${skill.name}" from its description.`,
    '',
    `Write ${should} requests that SHOULD select this skill and ${count - should} near-miss requests that should NOT: they share words or a subject with it but are another skill's job or need no skill. Vary length, wording and context (file names, details). Never name the skill or say "skill".`,
    '',
    'Answer with only a JSON array, no prose, each element exactly {"query": "<the request>", "should_trigger": true|false}.',
    '',
    '## The skill',
    `name: ${skill.name}`,
    `description: ${skill.description}`,
  ];
  if (skill.body?.trim()) lines.push('', 'Its instructions (start):', skill.body.slice(0, MAX_BODY_CHARS));
  if (neighbours.length) {
    lines.push('', '## The nearest other skills in the catalog (good sources of near misses)');
    for (const n of neighbours) lines.push(`- ${n.name}: ${n.description}`);
  }
  return lines.join('\n');
}

/** A model's answer that is not what was asked: the message says what was wrong. */
export class ModelAnswerError extends Error {}

/**
 * The JSON value in a model's answer: the whole answer, or the one fenced block, or the text from the first `open`
 * to the last `close` character. Bounded; throws ModelAnswerError.
 */
export function jsonOfAnswer(answer: string, open: '[' | '{'): string {
  if (answer.length > MAX_MODEL_ANSWER_CHARS) throw new ModelAnswerError(`The model's answer is ${answer.length} characters, over the ${MAX_MODEL_ANSWER_CHARS} read. Run the command again (or with another model).`);
  const fence = /```[a-zA-Z]*\n([\s\S]*?)```/.exec(answer);
  const text = (fence ? fence[1] : answer).trim();
  const start = text.indexOf(open);
  const end = text.lastIndexOf(open === '[' ? ']' : '}');
  if (start < 0 || end < start) throw new ModelAnswerError(`The model did not answer with a JSON ${open === '[' ? 'array' : 'object'}; it said: "${answer.slice(0, 200)}". Run the command again (or with another model).`);
  return text.slice(start, end + 1);
}

/**
 * Reads the drafted requests: one JSON array checked by the trigger file's own checks (`checkTriggerQueries`). Any
 * error there refuses the whole answer; requests that name the skill are dropped (they test the name).
 */
export function parseDraftedQueries(answer: string, skill: string): TriggerQuery[] {
  const json = jsonOfAnswer(answer, '[');
  const check = checkTriggerQueries(json, { skill, file: "the model's answer" });
  const errors = check.findings.filter((f) => f.severity === 'error');
  if (errors.length) throw new ModelAnswerError(`The model's requests are not a valid trigger set: ${errors.slice(0, 3).map((f) => f.message).join(' ')} Run the command again (or with another model).`);
  const kept = newQueries([], check.queries.filter((q) => !namesSkill(q.query, skill))).map((q) => ({ query: q.query, should_trigger: q.should_trigger }));
  if (!kept.length) throw new ModelAnswerError(`The model's answer holds no usable request (${check.queries.length} read, all naming the skill or repeated). Run the command again.`);
  return kept;
}

/**
 * Marks about VALIDATION_SHARE of the should requests and of the should-not requests `split: "validation"`, spread
 * through each kind (every request gets an explicit split), so both halves hold both kinds.
 */
export function assignSplits(queries: readonly TriggerQuery[]): TriggerQuery[] {
  const seen = { true: 0, false: 0 };
  return queries.map((q) => {
    const key = String(q.should_trigger) as 'true' | 'false';
    const i = seen[key]++;
    // Rounded, so the second of every two or three requests is held out first: 2 of 5, 2 of 4, 1 of 2, 0 of 1.
    const at = (n: number) => Math.floor(n * VALIDATION_SHARE + 0.5);
    const validation = at(i + 1) > at(i);
    return { ...q, split: validation ? 'validation' : 'train' };
  });
}

/** The drafted requests that are neither in the existing set nor repeated (the duplicate check's comparison). */
export function newQueries(existing: readonly TriggerQuery[], drafted: readonly TriggerQuery[]): TriggerQuery[] {
  const have = new Set(existing.map((q) => triggerQueryKey(q.query)));
  return drafted.filter((q) => {
    const k = triggerQueryKey(q.query);
    if (have.has(k)) return false;
    have.add(k);
    return true;
  });
}

/** The text of a trigger file: one request per line, so a diff shows one line per changed request. */
export function triggerFileText(queries: readonly TriggerQuery[]): string {
  if (!queries.length) return '[]\n';
  return `[\n${queries.map((q) => `  ${JSON.stringify(q)}`).join(',\n')}\n]\n`;
}


