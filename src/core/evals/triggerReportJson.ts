// Reads a trigger report saved as JSON (`agent-skills eval --json > before.json`) back, to compare a later run
// with it. Bounded: at most MAX_REPORT_CHARS characters, nesting checked before parsing, every field the diff and
// the renderer read checked for its type; anything else is refused with the field and the fix.
import { MAX_TRIGGER_QUERIES, nestingDepth } from './checkTriggerQueries';
import { TRIGGER_SPLITS } from './triggerFields';
import { splitScores, type TriggerReport, type TriggerRequestResult, type TriggerTrial } from './triggerResults';

/** Largest saved report read (a thousand requests with a few trials each is well under). */
export const MAX_REPORT_CHARS = 16 * 1024 * 1024;
/** A report nests four levels (report, results, result, trials, trial); a little room for additions. */
const MAX_REPORT_DEPTH = 8;
/** Most trials read per request. */
const MAX_TRIALS = 1000;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parses a saved report; throws an Error naming `file`, the field and the fix. */
export function parseTriggerReport(text: string, file: string): TriggerReport {
  const fix = 'Give a file written by `agent-skills eval --json` (or the report JSON VS Code saves).';
  const fail = (what: string): never => {
    throw new Error(`${file}: ${what}. ${fix}`);
  };
  if (text.length > MAX_REPORT_CHARS) fail(`${text.length} characters, over the ${MAX_REPORT_CHARS} read`);
  if (nestingDepth(text, MAX_REPORT_DEPTH) > MAX_REPORT_DEPTH) fail(`nests more than ${MAX_REPORT_DEPTH} levels deep; a report does not`);
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    fail(`not JSON (${(e as Error).message})`);
  }
  if (!isObj(v)) return fail('not a JSON object');
  const str = (o: Obj, k: string, where: string): string => (typeof o[k] === 'string' ? (o[k] as string) : fail(`${where}"${k}" must be a string`));
  const num = (o: Obj, k: string, where: string): number => (typeof o[k] === 'number' && Number.isFinite(o[k]) ? (o[k] as number) : fail(`${where}"${k}" must be a number`));
  const bool = (o: Obj, k: string, where: string): boolean => (typeof o[k] === 'boolean' ? (o[k] as boolean) : fail(`${where}"${k}" must be true or false`));
  const optStr = (o: Obj, k: string, where: string) => (o[k] === undefined ? {} : { [k]: str(o, k, where) });
  const optNum = (o: Obj, k: string, where: string) => (o[k] === undefined ? {} : { [k]: num(o, k, where) });
  const judge = str(v, 'judge', '');
  if (judge !== 'index' && judge !== 'model') fail(`"judge" is "${judge}"; it must be "index" or "model"`);
  if (!Array.isArray(v.results)) return fail('"results" must be an array of request results');
  if (v.results.length > MAX_TRIGGER_QUERIES) fail(`${v.results.length} results, more than the ${MAX_TRIGGER_QUERIES} a trigger set may hold`);
  const results: TriggerRequestResult[] = v.results.map((r: unknown, i: number) => {
    const at = `results[${i}].`;
    if (!isObj(r)) return fail(`results[${i}] must be an object`);
    const split = str(r, 'split', at);
    if (!(TRIGGER_SPLITS as readonly string[]).includes(split)) fail(`${at}"split" is "${split}"; it must be ${TRIGGER_SPLITS.map((s) => `"${s}"`).join(' or ')}`);
    if (!Array.isArray(r.trials) || r.trials.length > MAX_TRIALS) fail(`${at}"trials" must be an array of at most ${MAX_TRIALS} trials`);
    const trials: TriggerTrial[] = (r.trials as unknown[]).map((t, k) => {
      const tat = `${at}trials[${k}].`;
      if (!isObj(t)) return fail(`${at}trials[${k}] must be an object`);
      return { triggered: bool(t, 'triggered', tat), ...optStr(t, 'chosen', tat), ...optStr(t, 'error', tat) };
    });
    return {
      query: str(r, 'query', at),
      shouldTrigger: bool(r, 'shouldTrigger', at),
      split: split as TriggerRequestResult['split'],
      trials,
      triggerRate: num(r, 'triggerRate', at),
      passed: bool(r, 'passed', at),
      ...optNum(r, 'rank', at),
      ...optNum(r, 'confidence', at),
      ...optStr(r, 'first', at),
      ...(r.inList === undefined ? {} : { inList: bool(r, 'inList', at) }),
      ...optNum(r, 'line', at),
    };
  });
  return {
    skill: str(v, 'skill', ''),
    file: str(v, 'file', ''),
    judge,
    ...optStr(v, 'model', ''),
    catalogSize: num(v, 'catalogSize', ''),
    trialsPerRequest: num(v, 'trialsPerRequest', ''),
    startedAt: str(v, 'startedAt', ''),
    results,
    // Recounted from the results: the saved counts are not trusted to match them.
    ...splitScores(results),
    ...(v.cancelled === undefined ? {} : { cancelled: bool(v, 'cancelled', '') }),
  } as TriggerReport;
}
