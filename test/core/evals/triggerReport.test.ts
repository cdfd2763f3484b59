// The one trigger report renderer (Markdown) and the diff of two runs: pure functions on TriggerReport values.
import * as assert from 'node:assert/strict';
import { diffTriggerReports, markdownText, parseTriggerReport, rateBar, triggerFailureMessage, renderTriggerDiff, renderTriggerReport, requestPassed, splitScores, type TriggerReport, type TriggerRequestResult } from '../../../src/core/evals';

function result(query: string, shouldTrigger: boolean, triggered: boolean[], extra: Partial<TriggerRequestResult> = {}): TriggerRequestResult {
  const triggerRate = triggered.filter(Boolean).length / triggered.length;
  return { query, shouldTrigger, split: 'train', trials: triggered.map((t) => ({ triggered: t })), triggerRate, passed: requestPassed(shouldTrigger, triggerRate), ...extra };
}

function report(results: TriggerRequestResult[], extra: Partial<TriggerReport> = {}): TriggerReport {
  return { skill: 'pdf-forms', file: '/s/pdf-forms/evals/trigger-queries.json', judge: 'index', catalogSize: 3, trialsPerRequest: results[0]?.trials.length ?? 1, startedAt: '2026-11-27T01:00:00.000Z', results, ...splitScores(results), ...extra };
}

/** The table rows of a Markdown text (lines that start with `| ` and are not the separator). */
function rows(md: string): string[][] {
  return md
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('|---'))
    .map((l) => l.slice(2, -2).split(/(?<!\\) \| /));
}

describe('trigger report (Markdown) and the diff of two runs', () => {
  it('renders each request with expectation, result, pass rate, rank, the skill first instead, list membership, and the split rates', () => {
    const md = renderTriggerReport(
      report([
        result('fill this pdf form', true, [true], { rank: 1, inList: true, line: 2 }),
        result('merge two pdfs', true, [false], { rank: 2, first: 'pdf-merge', inList: true, split: 'validation' }),
        result('write a poem', false, [false], { inList: false }),
      ]),
    );
    assert.match(md, /^# Trigger test: pdf-forms$/m);
    assert.match(md, /\*\*2 of 3 requests passed \(67%\)\.\*\* Train: 100% \(2\/2\)\. Validation: 0% \(0\/1\)\./);
    const table = rows(md);
    assert.deepEqual(table[0], ['#', 'Expect', 'Result', 'Pass rate', 'Rank', 'Instead', 'In list', 'Split', 'Request']);
    assert.deepEqual(table[1], ['1', 'should', 'pass', '100%', '1', '—', 'yes', 'train', 'fill this pdf form']);
    assert.deepEqual(table[2], ['2', 'should', '**FAIL**', '0%', '2', 'pdf-merge', 'yes', 'validation', 'merge two pdfs']);
    assert.deepEqual(table[3], ['3', 'should not', 'pass', '100%', '—', '—', 'no', 'train', 'write a poem']);
    // The chart: one bar per request, in a text block with no user text.
    const chart = md.slice(md.indexOf('```text'));
    assert.match(chart, /#1 ████████████████████ 100%  should\n#2 ░░░░░░░░░░░░░░░░░░░░   0%  should  FAIL\n#3 ████████████████████ 100%  should not\n```/);
  });

  it('a model run: the chosen skills with counts, errors, the pass rate over trials, and a cancelled run says so', () => {
    const r = result('fill the pdf', true, [true, false, false], { trials: [{ triggered: true }, { triggered: false, chosen: 'docx' }, { triggered: false, error: 'model said no | twice' }] });
    const md = renderTriggerReport(report([r], { judge: 'model', model: 'gpt-x', trialsPerRequest: 3, cancelled: true }));
    assert.match(md, /Judge: the model gpt-x; 3 trials per request/);
    assert.match(md, /\*\*Cancelled\*\*/);
    const [, row] = rows(md);
    assert.equal(row[2], '**FAIL** (1 error: model said no \\| twice)');
    assert.equal(row[3], '33%');
    assert.equal(row[5], 'docx (1/3)');
  });

  it('escapes Markdown and control characters in requests and names: no cell is split, no code or HTML opens', () => {
    const hostile = 'a | b `code` <img src=x onerror=alert(1)> [l](javascript:x) *em* \u001b[31mred\r\nline2 &amp;';
    const md = renderTriggerReport(report([result(hostile, true, [false], { first: 'x|y<b>' })]));
    const [, row] = rows(md);
    assert.equal(row.length, 9, row.join(' ¦ '));
    assert.equal(row[8], 'a \\| b \\`code\\` \\<img src=x onerror=alert(1)\\> \\[l\\](javascript:x) \\*em\\* \\\\x1b\\[31mred line2 \\&amp;');
    assert.equal(row[5], 'x\\|y\\<b\\>');
    assert.ok(!/[\u0000-\u0009\u000b-\u001f]/.test(md), 'no control character but line feeds');
    assert.equal(markdownText('x'.repeat(600)).length, 501);
  });

  it('bars: full, empty, and any share above zero or below one shows as partial', () => {
    assert.equal(rateBar(1, 10), '██████████');
    assert.equal(rateBar(0, 10), '░░░░░░░░░░');
    assert.equal(rateBar(0.01, 10), '█░░░░░░░░░');
    assert.equal(rateBar(0.99, 10), '█████████░');
  });

  it('diffs two runs: pass→fail, fail→pass, rate moves, added and removed requests, split rates before → after', () => {
    const before = report([
      result('fill this pdf form', true, [true]),
      result('Merge two PDFs.', true, [false], { split: 'validation' }),
      result('write a poem', false, [false]),
      result('old request', true, [true]),
    ]);
    const after = report([
      result('fill this pdf form', true, [false], { first: 'docx' }),
      result('merge two pdfs', true, [true], { split: 'validation' }),
      result('write a poem', false, [false]),
      result('new request', false, [true]),
    ], { startedAt: '2026-11-27T02:00:00.000Z' });
    const d = diffTriggerReports(before, after);
    assert.deepEqual(d.counts, { 'pass→fail': 1, 'fail→pass': 1, 'still passes': 1, 'still fails': 0, added: 1, removed: 1 });
    assert.deepEqual(d.requests.map((r) => [r.query, r.change, r.before, r.after]), [
      ['fill this pdf form', 'pass→fail', 1, 0],
      ['merge two pdfs', 'fail→pass', 0, 1],
      ['write a poem', 'still passes', 1, 1],
      ['new request', 'added', undefined, 0],
      ['old request', 'removed', 1, undefined],
    ]);
    assert.deepEqual([d.before.validation, d.after.validation], [{ passed: 0, total: 1 }, { passed: 1, total: 1 }]);
    const md = renderTriggerDiff(d);
    const table = rows(md);
    assert.deepEqual(table[1], ['All', '75% (3/4) → 50% (2/4)']);
    assert.deepEqual(table[3], ['Validation', '0% (0/1) → 100% (1/1)']);
    // Regressions first.
    assert.deepEqual(table[5], ['**pass → fail**', 'should', '100% → 0%', '-100', 'train', 'fill this pdf form']);
    assert.deepEqual(table[6], ['fail → pass', 'should', '0% → 100%', '+100', 'validation', 'merge two pdfs']);
    assert.match(md, /1 fixed \(fail → pass\), 1 broken \(pass → fail\), 1 still pass, 0 still fail, 1 added, 1 removed\./);
  });
});

describe('trigger failure messages and saved reports', () => {
  const run = { skill: 'pdf-forms', judge: 'index' as const };
  it('says what happened and what to change, per kind of failure', () => {
    assert.equal(triggerFailureMessage(run, result('q', true, [true], { rank: 1 }), 1), undefined);
    assert.match(triggerFailureMessage(run, result('weak', true, [false], { rank: 1, confidence: 0.05 }), 2) as string, /^Request 2 "weak" should select "pdf-forms": it ranks first, but with confidence 0\.05, under the 0\.2 that counts as a match\./);
    assert.match(triggerFailureMessage(run, result('none', true, [false], { first: 'docx' }), 3) as string, /no word of it matches the skill \("docx" ranks first\)/);
    assert.match(triggerFailureMessage(run, result('near', false, [true], { rank: 1, confidence: 0.4 }), 4) as string, /should not select "pdf-forms", but the index ranks it first with confidence 0\.40/);
    const model = result('m', true, [false, false, true], { trials: [{ triggered: false, chosen: 'docx' }, { triggered: false, chosen: 'docx' }, { triggered: true }] });
    model.passed = false;
    assert.match(triggerFailureMessage({ skill: 'pdf-forms', judge: 'model' }, model, 5) as string, /it did in 1 of 3 trials; chose "docx" 2 times/);
  });

  it('a saved report reads back (counts recomputed); a wrong field, a deep nesting or a huge results list is refused naming the file and field', () => {
    const r = report([result('a', true, [true]), result('b', false, [true], { split: 'validation' })]);
    const back = parseTriggerReport(JSON.stringify({ ...r, train: { passed: 99, total: 99 } }), 'before.json');
    assert.deepEqual(back.train, { passed: 1, total: 1 });
    assert.deepEqual(back.results, r.results);
    assert.throws(() => parseTriggerReport(JSON.stringify({ ...r, results: [{ ...r.results[0], split: 'test' }] }), 'before.json'), /^Error: before\.json: results\[0\]\."split" is "test"; it must be "train" or "validation"\. Give a file written by `agent-skills eval --json`/);
    assert.throws(() => parseTriggerReport('['.repeat(100_000), 'deep.json'), /deep\.json: nests more than 8 levels deep/);
    assert.throws(() => parseTriggerReport(JSON.stringify({ ...r, results: Array.from({ length: 1001 }, () => r.results[0]) }), 'big.json'), /big\.json: 1001 results, more than the 1000/);
  });
});
