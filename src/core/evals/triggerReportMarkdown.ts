// The one rendering of a trigger run as Markdown (pure: a TriggerReport in, text out), for both judges: the CLI's
// `agent-skills eval` prints it, VS Code shows it in a Markdown preview. Per request: should or should not, pass
// rate, rank, the skill chosen (or ranked first) instead; the train and validation pass rates; a chart of pass
// rate per request as text bars (VS Code's preview does not render mermaid without an extension). Every piece of
// user text (requests, skill names, model errors) goes through markdownText.
import { MIN_MATCH_CONFIDENCE } from '../index/matchConfidence';
import { markdownTable, markdownText } from './markdownText';
import type { TriggerReport, TriggerRequestResult, TriggerSplitScore } from './triggerResults';

/** Share of a request's trials that did what the request expects (triggered when it should, stayed out when not). */
export function requestPassRate(r: Pick<TriggerRequestResult, 'shouldTrigger' | 'triggerRate'>): number {
  return r.shouldTrigger ? r.triggerRate : 1 - r.triggerRate;
}

/** `83% (5/6)`, or `none` for an empty split. */
export function scoreText(s: TriggerSplitScore): string {
  return s.total ? `${percent(s.passed / s.total)} (${s.passed}/${s.total})` : 'none';
}

export function percent(x: number): string {
  return `${Math.round(x * 100)}%`;
}

/** Width in characters of a pass-rate bar. */
const BAR_WIDTH = 20;

/** A text bar for a share 0..1: filled blocks, then light shade; at least one block for any share above 0. */
export function rateBar(x: number, width = BAR_WIDTH): string {
  const clamped = Math.max(0, Math.min(1, x));
  const full = clamped > 0 && clamped < 1 ? Math.min(width - 1, Math.max(1, Math.round(clamped * width))) : Math.round(clamped * width);
  return `${'█'.repeat(full)}${'░'.repeat(width - full)}`;
}

/** The skills chosen instead over the trials (model judge) with how many trials chose each, else the index's first skill instead. */
export function insteadNames(r: TriggerRequestResult): { name: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const t of r.trials) if (t.chosen) counts.set(t.chosen, (counts.get(t.chosen) ?? 0) + 1);
  if (counts.size) return [...counts].map(([name, count]) => ({ name, count }));
  return r.first === undefined ? [] : [{ name: r.first, count: 1 }];
}

/** {@link insteadNames} as Markdown (names escaped; counts shown when there were several trials). */
export function insteadText(r: TriggerRequestResult): string | undefined {
  const names = insteadNames(r);
  if (!names.length) return undefined;
  const many = r.trials.length > 1 && r.trials.some((t) => t.chosen);
  return names.map(({ name, count }) => `${markdownText(name, 120)}${many ? ` (${count}/${r.trials.length})` : ''}`).join(', ');
}

function yesNo(b: boolean | undefined): string {
  return b === undefined ? '—' : b ? 'yes' : 'no';
}

function judgeLine(report: TriggerReport): string {
  const judge = report.judge === 'index' ? 'the skill index (offline: what `find_skills` ranks first, no model)' : `the model ${markdownText(report.model ?? 'chosen in VS Code')}`;
  const trials = `${report.trialsPerRequest} trial${report.trialsPerRequest === 1 ? '' : 's'} per request`;
  return `Judge: ${judge}; ${trials}; catalog of ${report.catalogSize} skill${report.catalogSize === 1 ? '' : 's'}; started ${markdownText(report.startedAt)}.`;
}

/** The request's cells, in the order of the table's columns. */
function requestRow(r: TriggerRequestResult, n: number): string[] {
  const errors = r.trials.filter((t) => t.error);
  const result = r.passed ? 'pass' : '**FAIL**';
  const instead = insteadText(r);
  const notes = errors.length ? ` (${errors.length} error${errors.length === 1 ? '' : 's'}: ${markdownText(errors[0].error as string, 120)})` : '';
  return [
    String(n),
    r.shouldTrigger ? 'should' : 'should not',
    `${result}${notes}`,
    `${percent(requestPassRate(r))}`,
    r.rank === undefined ? '—' : `${r.rank}${r.confidence === undefined ? '' : ` (${r.confidence.toFixed(2)})`}`,
    instead ?? '—',
    yesNo(r.inList),
    r.split,
    markdownText(r.query),
  ];
}

const COLUMNS = ['#', 'Expect', 'Result', 'Pass rate', 'Rank', 'Instead', 'In list', 'Split', 'Request'];


/** Options of the rendering. */
export interface TriggerReportRenderOptions {
  /** Heading level of the title (1 by default; 2 when the report is part of a larger document). */
  level?: 1 | 2;
  /** Leave out the chart (e.g. for a terminal). */
  noChart?: boolean;
}

/**
 * The report as Markdown: title, judge and catalog, the pass rates (all, train, validation), one table row per
 * request (failures marked), and a chart of each request's pass rate.
 */
export function renderTriggerReport(report: TriggerReport, opts: TriggerReportRenderOptions = {}): string {
  const h = '#'.repeat(opts.level ?? 1);
  const passed = report.results.filter((r) => r.passed).length;
  const total = report.results.length;
  const out: string[] = [
    `${h} Trigger test: ${markdownText(report.skill)}`,
    '',
    `File: ${markdownText(report.file)}`,
    '',
    judgeLine(report),
    '',
  ];
  if (report.cancelled) out.push(`**Cancelled**: ${total} request${total === 1 ? '' : 's'} judged before the run was stopped; the rates count only those.`, '');
  out.push(
    `**${passed} of ${total} request${total === 1 ? '' : 's'} passed${total ? ` (${percent(passed / total)})` : ''}.** Train: ${scoreText(report.train)}. Validation: ${scoreText(report.validation)}.`,
    '',
  );
  if (!total) {
    out.push('No request was judged.', '');
    return out.join('\n');
  }
  out.push(...markdownTable(COLUMNS, report.results.map((r, i) => requestRow(r, i + 1))), '');
  out.push(
    `Expect: whether the request should select the skill. Pass rate: share of trials that did what the request expects. Rank: the skill's place in the index for the request, with its match confidence in brackets when the index judged (under ${MIN_MATCH_CONFIDENCE} is no match). Instead: the skill chosen (or ranked first) in its place. In list: whether the skill is in the \`<available_skills>\` list the model gets for the request.`,
    '',
  );
  if (!opts.noChart) out.push(`${h}# Pass rate per request`, '', ...rateChart(report.results), '');
  return out.join('\n');
}

/** One line per request: number, bar, rate, expectation (no user text, so the code block needs no escaping). */
export function rateChart(results: readonly TriggerRequestResult[]): string[] {
  const width = String(results.length).length;
  return ['```text', ...results.map((r, i) => `#${String(i + 1).padEnd(width)} ${rateBar(requestPassRate(r))} ${percent(requestPassRate(r)).padStart(4)}  ${r.shouldTrigger ? 'should' : 'should not'}${r.passed ? '' : '  FAIL'}`), '```'];
}
