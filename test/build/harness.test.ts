// The real VS Code harness (test/harness/runVscodeTests.mjs), run as a child process on suites
// that fail or hang on purpose: it must exit non-zero, count right, and leave no process behind.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { requireRealVscode } from '../support/realVscode';

const root = path.resolve(__dirname, '..', '..');

interface HarnessRun {
  code: number | null;
  output: string;
  stats: { passed: number; failed: number; skipped: number; tests?: [string, string][] } | undefined;
}

function runHarness(env: Record<string, string>): Promise<HarnessRun> {
  const statsFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'harness-stats-')), 'stats.json');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'test', 'harness', 'runVscodeTests.mjs')], {
      cwd: root,
      // Two runs at once must not both rewrite dist/; these suites do not need a fresh build.
      env: { ...process.env, ...env, MOCHA_STATS_FILE: statsFile, SKILLS_VSCODE_PACKAGED: '0', SKILLS_VSCODE_NO_BUILD: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      const stats = fs.existsSync(statsFile) ? JSON.parse(fs.readFileSync(statsFile, 'utf8')) : undefined;
      fs.rmSync(path.dirname(statsFile), { recursive: true, force: true });
      resolve({ code, output, stats });
    });
  });
}

/** Pids of live processes whose command line mentions `text`. */
function processesMentioning(text: string): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.includes(text)) found.push(Number(entry));
    } catch {
      // exited while we looked
    }
  }
  return found;
}

function runFolder(output: string): string {
  const m = /run folder (\S+)/.exec(output);
  assert.ok(m, `the harness did not print its run folder:\n${output}`);
  return m[1];
}

describe('real VS Code harness (self-test)', function () {
  this.timeout(15 * 60_000);

  before(function () {
    requireRealVscode(this);
  });

  // Both harness runs start together: each costs a VS Code start-up, so overlap them.
  let failing: Promise<HarnessRun>;
  let hanging: Promise<HarnessRun>;
  before(() => {
    failing = runHarness({ SKILLS_VSCODE_SUITES: 'test/harness/fixtures/failing.test.ts' });
    // The hanging test's own deadline counts from its start, so however long VS Code takes to start on a
    // loaded machine, the test has started when the harness stops everything.
    hanging = runHarness({ SKILLS_VSCODE_SUITES: 'test/harness/fixtures/hanging.test.ts', SKILLS_VSCODE_TEST_DEADLINE_MS: '5000' });
  });

  it('exits non-zero when an extension test fails, and reports the counts', async () => {
    const run = await failing;
    assert.equal(run.code, 1, run.output);
    assert.match(run.output, /deliberate failure for the harness self-test/);
    assert.match(run.output, /✔ passes inside VS Code/);
    assert.deepEqual({ ...run.stats, tests: undefined }, { passed: 1, failed: 1, skipped: 0, tests: undefined });
    // Each test by name, for the distinct count of npm test's summary.
    assert.deepEqual(run.stats?.tests?.map(([, state]) => state).sort(), ['failed', 'passed']);
    assert.deepEqual(processesMentioning(runFolder(run.output)), []);
  });

  it('stops every process it started when a test hangs past the deadline', async () => {
    const run = await hanging;
    assert.equal(run.code, 1, run.output);
    assert.match(run.output, /hanging test started/, 'the deadline hit before the hanging test ran');
    assert.match(run.output, /deadline: the test "harness self-test: hanging suite never finishes" was still running 5000 ms after it started/);
    assert.equal(run.stats?.failed, 1, `stats: ${JSON.stringify(run.stats)}`);
    const folder = runFolder(run.output);
    assert.deepEqual(processesMentioning(folder), [], `processes left running from ${folder}`);
    const group = /process group (\d+)/.exec(run.output);
    assert.ok(group, run.output);
    assert.throws(() => process.kill(-Number(group[1]), 0), /ESRCH/, 'the code-server process group is still alive');
  });
});
