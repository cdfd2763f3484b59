// One attempt of the model judge: a request sent as the first turn of a fresh session, and whether the model picks
// the skill. The host runs the session (the same compose `@skills` runs, the model, the real
// find_skills result); this file decides what the tool calls mean and when the attempt ends. No VS Code import.
import { requestPassed, type TriggerRequestResult, type TriggerTrial } from './triggerResults';
import type { TriggerQuery } from './checkTriggerQueries';

/** Most model calls in one attempt: the request, then up to two answers to find_skills. */
export const MAX_TRIAL_ROUNDS = 3;

/** One tool call as the model made it. */
export interface TrialToolCall {
  callId: string;
  name: string;
  input: unknown;
}

/** The tool names the judge reads calls by (the host's, from the tool table). */
export interface TrialToolNames {
  /** load_skills: `names` selects skills. */
  load: string;
  /** runSkill: `action: "run"` with `skill` selects one. */
  runSkill: string;
  /** find_skills: answered with its real result, then the turn goes on. */
  find: string;
}

/** One fresh `@skills` session as the host runs it: it keeps the history and composes each call itself. */
export interface TrialConversation {
  /** Composes the call for the history so far and sends it; answers the model's tool calls. Throws on a model error. */
  send(): Promise<TrialToolCall[]>;
  /** Runs find_skills as the session would and adds the call and its result to the history. */
  answerFind(call: TrialToolCall): Promise<void>;
  /** Turns a thrown model error into the line recorded for the attempt. */
  describeError(e: unknown): string;
}

/** A skill reference as a name: runSkill takes canonical ids (`workspace:pdf`). */
function bareName(ref: string): string {
  return ref.slice(ref.lastIndexOf(':') + 1);
}

/** The skills a list of calls selects: load_skills' names, and runSkill `run`. */
export function selectedSkills(calls: readonly TrialToolCall[], names: TrialToolNames): string[] {
  const out: string[] = [];
  for (const c of calls) {
    const input = (c.input ?? {}) as Record<string, unknown>;
    if (c.name === names.load && Array.isArray(input.names)) out.push(...input.names.filter((n): n is string => typeof n === 'string').map(bareName));
    else if (c.name === names.runSkill && input.action === 'run' && typeof input.skill === 'string') out.push(bareName(input.skill));
  }
  return out;
}

/** The verdict of one attempt from the skills the model selected. */
export function trialOf(skill: string, selected: readonly string[]): TriggerTrial {
  if (selected.includes(skill)) return { triggered: true };
  return selected.length ? { triggered: false, chosen: selected[0] } : { triggered: false };
}

/**
 * Runs one attempt: send the fresh turn; a selection ends it; find_skills is answered with its real result and the
 * turn continues (at most MAX_TRIAL_ROUNDS calls); any other answer (text, another tool) means the skill was not
 * picked. A model error is recorded on the attempt, never thrown.
 */
export async function runModelTrial(skill: string, conversation: TrialConversation, names: TrialToolNames, isCancelled: () => boolean = () => false): Promise<TriggerTrial> {
  for (let round = 1; round <= MAX_TRIAL_ROUNDS; round++) {
    let calls: TrialToolCall[];
    try {
      calls = await conversation.send();
    } catch (e) {
      return { triggered: false, error: conversation.describeError(e) };
    }
    const selected = selectedSkills(calls, names);
    if (selected.length) return trialOf(skill, selected);
    const searches = calls.filter((c) => c.name === names.find);
    if (!searches.length || round === MAX_TRIAL_ROUNDS || isCancelled()) return { triggered: false };
    for (const c of searches) await conversation.answerFind(c);
  }
  return { triggered: false };
}

/**
 * One request's verdict from its attempts (the shared pass rule; a request without a split counts as train). An
 * attempt with an error counts as not triggered; a request whose every attempt failed does not pass either way
 * (the model never answered it).
 */
export function requestResult(q: TriggerQuery, trials: TriggerTrial[]): TriggerRequestResult {
  const rate = trials.length ? trials.filter((t) => t.triggered).length / trials.length : 0;
  const answered = trials.some((t) => t.error === undefined);
  return { query: q.query, shouldTrigger: q.should_trigger, split: q.split ?? 'train', trials, triggerRate: rate, passed: answered && requestPassed(q.should_trigger, rate) };
}
