// The offline trigger judge: does each request of a skill's trigger set select the skill, as far as the runtime's
// own skill index can tell without a model? A request triggers when the skill is the index's first match for it
// with a confidence at or above MIN_MATCH_CONFIDENCE (what find_skills calls a good match). Per request it also
// records the skill's rank, the skill ranked first instead, and whether the skill is in the `<available_skills>`
// block the model would get for the request (the block `agent-skills prompt --request` prints). One trial per
// request: the index is deterministic. It lives above src/core/prompt (README's layers) because of that block.
import { isGoodMatch } from '../../index/matchConfidence';
import { indexKey } from '../../index/rankCatalog';
import type { SkillIndex } from '../../index/skillIndex';
import { requestCatalogBlock } from '../../prompt/requestCatalog';
import type { CatalogBudget, CatalogSkill, TokenCounter } from '../../prompt/promptTypes';
import { memoizeCounter, o200kCounter } from '../../prompt/tokenCounter';
import type { TriggerQuery } from '../checkTriggerQueries';
import { requestPassed, splitScores, type TriggerReport, type TriggerRequestResult } from '../triggerResults';

/** A request to judge: as read from the trigger file, with its line there when known. */
export type JudgedQuery = TriggerQuery & { line?: number };

export interface OfflineJudgeInput {
  /** The skill under test: its key in the index (see `indexKey`) and its name. */
  skill: { id: string; name: string };
  /** Every skill the model could be offered (the skill under test among them), keyed in `index` by `indexKey`. */
  catalog: readonly CatalogSkill[];
  /** The index holding the catalog (the runtime's: names, descriptions and bodies). */
  index: SkillIndex;
  queries: readonly JudgedQuery[];
  /** The trigger file, as the report names it. */
  file: string;
  /** The `<available_skills>` budget (default the runtime's). */
  budget?: CatalogBudget;
  /** The run's start (default now). */
  startedAt?: Date;
}

/** One request judged by the index. */
export function judgeRequest(input: Omit<OfflineJudgeInput, 'queries' | 'file' | 'startedAt'>, q: JudgedQuery, names: ReadonlyMap<string, string>, counter: TokenCounter = o200kCounter): TriggerRequestResult {
  const hits = input.index.search(q.query).filter((h) => names.has(h.id));
  const first = hits[0];
  const at = hits.findIndex((h) => h.id === input.skill.id);
  const own = at >= 0 ? hits[at] : undefined;
  const triggered = first !== undefined && first.id === input.skill.id && isGoodMatch(first.confidence);
  const other = first && first.id !== input.skill.id ? names.get(first.id) : undefined;
  const block = requestCatalogBlock(input.catalog, q.query, input.index, input.budget, counter);
  const inList = block.shownSkills.some((s) => indexKey(s) === input.skill.id);
  const triggerRate = triggered ? 1 : 0;
  return {
    query: q.query,
    shouldTrigger: q.should_trigger,
    split: q.split ?? 'train',
    trials: [{ triggered, ...(other !== undefined && isGoodMatch(first.confidence) ? { chosen: other } : {}) }],
    triggerRate,
    passed: requestPassed(q.should_trigger, triggerRate),
    ...(own ? { rank: at + 1, confidence: round(own.confidence) } : {}),
    ...(other !== undefined ? { first: other } : {}),
    inList,
    ...(q.line !== undefined ? { line: q.line } : {}),
  };
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** Judges every request of the set against the catalog with the index. */
export function judgeTriggersOffline(input: OfflineJudgeInput): TriggerReport {
  const names = new Map(input.catalog.map((s) => [indexKey(s), s.name] as const));
  if (!names.has(input.skill.id)) throw new Error(`The skill "${input.skill.name}" (${input.skill.id}) is not in the catalog it is judged against.`);
  const startedAt = (input.startedAt ?? new Date()).toISOString();
  // Every request's block is cut from the same entries: each is tokenized once per run.
  const counter = memoizeCounter(o200kCounter, Math.max(4000, input.catalog.length + 16));
  const results = input.queries.map((q) => judgeRequest(input, q, names, counter));
  return {
    skill: input.skill.name,
    file: input.file,
    judge: 'index',
    catalogSize: input.catalog.length,
    trialsPerRequest: 1,
    startedAt,
    results,
    ...splitScores(results),
  };
}
