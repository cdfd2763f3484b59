// Two runs of one trigger set compared (before and after a description change, or the index judge against the
// model judge): per request whether it went from pass to fail or back, and how its pass rate moved; the split
// rates before and after. Requests are matched by their text as the duplicate check compares it (case, spacing
// and end punctuation aside); a request in one run only is listed as added or removed.
import { triggerQueryKey } from './checkTriggerQueries';
import { markdownTable, markdownText } from './markdownText';
import { percent, requestPassRate, scoreText } from './triggerReportMarkdown';
import type { TriggerSplit } from './triggerFields';
import type { TriggerReport, TriggerRequestResult, TriggerSplitScore } from './triggerResults';

/** What happened to one request between the two runs. */
export type TriggerChange = 'pass→fail' | 'fail→pass' | 'still passes' | 'still fails' | 'added' | 'removed';

/** One request in the diff. */
export interface TriggerRequestDiff {
  query: string;
  shouldTrigger: boolean;
  split: TriggerSplit;
  change: TriggerChange;
  /** Pass rate (share of trials that did what the request expects) before and after; absent when not in that run. */
  before?: number;
  after?: number;
  /** True when the expectation (should_trigger) differs between the runs: the file changed, not only the skill. */
  expectationChanged?: boolean;
}

/** One run's summary in the diff. */
export interface TriggerRunSummary {
  startedAt: string;
  judge: TriggerReport['judge'];
  model?: string;
  passed: number;
  total: number;
  train: TriggerSplitScore;
  validation: TriggerSplitScore;
}

/** Two runs compared. */
export interface TriggerReportDiff {
  skill: string;
  before: TriggerRunSummary;
  after: TriggerRunSummary;
  /** In the order of the later run, then the requests only the earlier run had. */
  requests: TriggerRequestDiff[];
  /** How many requests each change has. */
  counts: Record<TriggerChange, number>;
}

function summary(r: TriggerReport): TriggerRunSummary {
  return {
    startedAt: r.startedAt,
    judge: r.judge,
    ...(r.model !== undefined ? { model: r.model } : {}),
    passed: r.results.filter((x) => x.passed).length,
    total: r.results.length,
    train: r.train,
    validation: r.validation,
  };
}

/** Compares two runs of a skill's trigger set. */
export function diffTriggerReports(before: TriggerReport, after: TriggerReport): TriggerReportDiff {
  const earlier = new Map<string, TriggerRequestResult>();
  for (const r of before.results) if (!earlier.has(triggerQueryKey(r.query))) earlier.set(triggerQueryKey(r.query), r);
  const seen = new Set<string>();
  const requests: TriggerRequestDiff[] = [];
  for (const a of after.results) {
    const key = triggerQueryKey(a.query);
    if (seen.has(key)) continue;
    seen.add(key);
    const b = earlier.get(key);
    const base = { query: a.query, shouldTrigger: a.shouldTrigger, split: a.split, after: requestPassRate(a) };
    if (!b) {
      requests.push({ ...base, change: 'added' });
      continue;
    }
    const change: TriggerChange = b.passed ? (a.passed ? 'still passes' : 'pass→fail') : a.passed ? 'fail→pass' : 'still fails';
    requests.push({ ...base, before: requestPassRate(b), change, ...(b.shouldTrigger !== a.shouldTrigger ? { expectationChanged: true } : {}) });
  }
  for (const [key, b] of earlier) {
    if (!seen.has(key)) requests.push({ query: b.query, shouldTrigger: b.shouldTrigger, split: b.split, before: requestPassRate(b), change: 'removed' });
  }
  const counts: Record<TriggerChange, number> = { 'pass→fail': 0, 'fail→pass': 0, 'still passes': 0, 'still fails': 0, added: 0, removed: 0 };
  for (const r of requests) counts[r.change]++;
  return { skill: after.skill, before: summary(before), after: summary(after), requests, counts };
}

function rateCell(x: number | undefined): string {
  return x === undefined ? '—' : percent(x);
}

function moved(b: number | undefined, a: number | undefined): string {
  if (b === undefined || a === undefined) return '—';
  const d = Math.round((a - b) * 100);
  return d === 0 ? '0' : d > 0 ? `+${d}` : `${d}`;
}

function scoreMove(b: TriggerSplitScore, a: TriggerSplitScore): string {
  return `${scoreText(b)} → ${scoreText(a)}`;
}

/** The diff as Markdown: split rates before → after, then changed requests first (regressions on top). */
export function renderTriggerDiff(diff: TriggerReportDiff, opts: { level?: 1 | 2 } = {}): string {
  const h = '#'.repeat(opts.level ?? 1);
  const c = diff.counts;
  const all = (s: TriggerRunSummary) => ({ passed: s.passed, total: s.total });
  const out = [
    `${h} Trigger test compared: ${markdownText(diff.skill)}`,
    '',
    `Before: ${markdownText(diff.before.startedAt)} (${diff.before.judge === 'model' ? `model ${markdownText(diff.before.model ?? '')}` : 'skill index'}). After: ${markdownText(diff.after.startedAt)} (${diff.after.judge === 'model' ? `model ${markdownText(diff.after.model ?? '')}` : 'skill index'}).`,
    '',
    ...markdownTable(['', 'Before → after'], [
      ['All', scoreMove(all(diff.before), all(diff.after))],
      ['Train', scoreMove(diff.before.train, diff.after.train)],
      ['Validation', scoreMove(diff.before.validation, diff.after.validation)],
    ]),
    '',
    `${c['fail→pass']} fixed (fail → pass), ${c['pass→fail']} broken (pass → fail), ${c['still passes']} still pass, ${c['still fails']} still fail${c.added ? `, ${c.added} added` : ''}${c.removed ? `, ${c.removed} removed` : ''}.`,
    '',
  ];
  const order: TriggerChange[] = ['pass→fail', 'fail→pass', 'still fails', 'added', 'removed', 'still passes'];
  const rows = [...diff.requests]
    .sort((x, y) => order.indexOf(x.change) - order.indexOf(y.change))
    .map((r) => [
      r.change === 'pass→fail' ? '**pass → fail**' : r.change === 'fail→pass' ? 'fail → pass' : r.change,
      r.shouldTrigger ? 'should' : 'should not',
      `${rateCell(r.before)} → ${rateCell(r.after)}`,
      moved(r.before, r.after),
      r.split,
      `${markdownText(r.query)}${r.expectationChanged ? ' (should\\_trigger changed)' : ''}`,
    ]);
  if (rows.length) out.push(...markdownTable(['Change', 'Expect', 'Pass rate', 'Points', 'Split', 'Request'], rows), '');
  return out.join('\n');
}
