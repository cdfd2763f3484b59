// npm test's closing lines (scripts/testSummary.mjs) and the reporter that feeds them: each pass says how
// many tests ran in it, a test run by two passes (root, then the unprivileged account) counts once, and the
// last line stays `N passed, N failed[, N skipped]` for CI (issue 22.9).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { makeTempDir } from '../support/tempDir';

const root = path.resolve(__dirname, '..', '..');
type Summarize = (runs: { name: string; user: string; passed: number; failed: number; skipped: number; tests?: [string, string][] }[]) => {
  lines: string[];
  distinct: { passed: number; failed: number; skipped: number; total: number; repeated: number };
  runsTotal: number;
};
const load = async () => ((await import(pathToFileURL(path.join(root, 'scripts', 'testSummary.mjs')).href)) as { summarize: Summarize }).summarize;

describe('npm test summary: runs per pass and distinct tests (issue 22.9)', () => {
  it('counts a test that two passes ran once, and says how many ran in each pass', async () => {
    const summarize = await load();
    const s = summarize([
      { name: 'unit', user: 'root', passed: 3, failed: 0, skipped: 1, tests: [['a.ts :: A', 'passed'], ['a.ts :: B', 'passed'], ['b.ts :: C', 'passed'], ['b.ts :: D', 'skipped']] },
      { name: 'unit, unprivileged', user: 'agent-skills-test (uid 999)', passed: 1, failed: 1, skipped: 0, tests: [['a.ts :: A', 'passed'], ['a.ts :: B', 'failed']] },
    ]);
    assert.deepEqual(s.distinct, { passed: 2, failed: 1, skipped: 1, total: 4, repeated: 2 });
    assert.equal(s.runsTotal, 6);
    assert.match(s.lines.join('\n'), /unit +as root +4 ran: 3 passed, 0 failed, 1 skipped/);
    assert.match(s.lines.join('\n'), /unit, unprivileged +as agent-skills-test \(uid 999\) +2 ran: 1 passed, 1 failed/);
    assert.match(s.lines.join('\n'), /distinct tests: 4 \(2 of them ran in more than one pass; 6 test runs in all\)/);
    assert.equal(s.lines.at(-1), '2 passed, 1 failed, 1 skipped');
  });

  it('keeps failures no test id accounts for (a pass that never reported) as failures of their own', async () => {
    const summarize = await load();
    const s = summarize([
      { name: 'unit', user: 'root', passed: 1, failed: 0, skipped: 0, tests: [['a.ts :: A', 'passed']] },
      { name: 'unprivileged pass', user: 'agent-skills-test', passed: 0, failed: 1, skipped: 0 },
    ]);
    assert.equal(s.lines.at(-1), '1 passed, 1 failed');
    assert.match(s.lines.at(-1)!, /^\d+ passed, \d+ failed(, \d+ skipped)?$/);
  });

  it('the mocha reporter names each test that ended, a failed hook included', () => {
    const tmp = makeTempDir('reporter-');
    try {
      const spec = path.join(tmp.dir, 'sample.test.js');
      fs.writeFileSync(
        spec,
        [
          "describe('s', () => { it('passes', () => {}); it('fails', () => { throw new Error('no'); }); it.skip('skips', () => {}); });",
          "describe('h', () => { before(() => { throw new Error('hook'); }); it('never runs', () => {}); });",
        ].join('\n'),
      );
      const stats = path.join(tmp.dir, 'stats.json');
      spawnSync(process.execPath, [path.join(root, 'node_modules/mocha/bin/mocha.js'), '--no-config', '--reporter', path.join(root, 'test/support/countingReporter.cjs'), spec], { cwd: tmp.dir, env: { ...process.env, MOCHA_STATS_FILE: stats }, encoding: 'utf8' });
      const s = JSON.parse(fs.readFileSync(stats, 'utf8')) as { passed: number; failed: number; skipped: number; tests: [string, string][] };
      assert.deepEqual([s.passed, s.failed, s.skipped], [1, 2, 1]);
      assert.deepEqual(s.tests.sort(), [
        ['sample.test.js :: hook: h "before all" hook for "never runs"', 'failed'],
        ['sample.test.js :: s fails', 'failed'],
        ['sample.test.js :: s passes', 'passed'],
        ['sample.test.js :: s skips', 'skipped'],
      ]);
    } finally {
      tmp.cleanup();
    }
  });
});
