// What a trigger run found: one shape for both judges (the offline index judge of the CLI and the model judge of
// VS Code), so one report renders either, and two runs of either can be compared.
import type { TriggerSplit } from './triggerFields';

/** Who decided whether a request selects the skill. */
export type TriggerJudgeKind = 'index' | 'model';

/** One attempt at one request (the index judges once; a model is asked several times). */
export interface TriggerTrial {
  /** True when the skill was selected (index: first good match; model: `load_skills` called for it). */
  triggered: boolean;
  /** The skill selected instead, by name, when another one was. */
  chosen?: string;
  /** Why this attempt gave no answer (a model error): counted as not triggered, and shown. */
  error?: string;
}

/** The verdict on one request of the trigger set. */
export interface TriggerRequestResult {
  query: string;
  shouldTrigger: boolean;
  split: TriggerSplit;
  trials: TriggerTrial[];
  /** Share of trials that triggered (0..1). */
  triggerRate: number;
  /** True when the request did what it should: triggered in at least half the trials when it should, in fewer otherwise. */
  passed: boolean;
  /** The skill's 1-based rank in the index for this request; absent when the index did not return it. */
  rank?: number;
  /** Index judge: the skill's match confidence for this request (0..1); a trigger needs at least MIN_MATCH_CONFIDENCE. */
  confidence?: number;
  /** The skill ranked first instead, by name, when it is not this skill. */
  first?: string;
  /** Whether the skill is in the `<available_skills>` list the model gets for this request. */
  inList?: boolean;
  /** The 1-based line of the request in the trigger file (for locations in SARIF, annotations, code lenses). */
  line?: number;
}

/** Pass counts for one split. */
export interface TriggerSplitScore {
  passed: number;
  total: number;
}

/** One run of a trigger set against one judge. */
export interface TriggerReport {
  /** The skill's name. */
  skill: string;
  /** The trigger file judged (absolute path or URI string). */
  file: string;
  judge: TriggerJudgeKind;
  /** The model's name, for the model judge. */
  model?: string;
  /** How many skills the catalog judged against held. */
  catalogSize: number;
  /** Trials per request. */
  trialsPerRequest: number;
  /** ISO time the run started. */
  startedAt: string;
  results: TriggerRequestResult[];
  train: TriggerSplitScore;
  validation: TriggerSplitScore;
  /** True when the run was cancelled before every request was judged (results hold the ones that were). */
  cancelled?: boolean;
}

/** The pass rule shared by both judges. */
export function requestPassed(shouldTrigger: boolean, triggerRate: number): boolean {
  return shouldTrigger ? triggerRate >= 0.5 : triggerRate < 0.5;
}

/** Train and validation scores of a list of results. */
export function splitScores(results: readonly TriggerRequestResult[]): { train: TriggerSplitScore; validation: TriggerSplitScore } {
  const score = (split: TriggerSplit): TriggerSplitScore => {
    const of = results.filter((r) => r.split === split);
    return { passed: of.filter((r) => r.passed).length, total: of.length };
  };
  return { train: score('train'), validation: score('validation') };
}
