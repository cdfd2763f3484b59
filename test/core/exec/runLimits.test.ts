// Issue 22 point 7, the run limits: a cap on concurrent runs per runner (queue, then refuse, said in the
// result or the error), and a spawn that fails with E2BIG reported as an argument error naming the field
// and the limit, not as a run that failed.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ScriptRunError, type RunResult } from '../../../src/core/exec';
import { cleanup, sandboxWorks, setup, waitFor, type Sandbox } from './helpers';

describe('core/exec run limits (issue 22.7)', function () {
  this.timeout(60000);
  let sb: Sandbox;
  before(() => {
    sb = setup();
    // Marks its start in $1, then holds its slot until $1/go exists.
    fs.writeFileSync(path.join(sb.skillRoot, 'scripts', 'hold.sh'), 'touch "$1/started.$$"\nwhile [ ! -e "$1/go" ]; do sleep 0.02; done\n');
  });
  after(() => cleanup(sb));

  it('runs at most maxConcurrentRuns at once, queues maxQueuedRuns more, and refuses the rest before starting them', async () => {
    const dir = fs.mkdtempSync(path.join(sb.tmp, 'hold-'));
    const runner = sb.runner({ maxConcurrentRuns: 2, maxQueuedRuns: 1 });
    const started = () => fs.readdirSync(dir).filter((f) => f.startsWith('started.')).length;
    const req = { skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/hold.sh', args: [dir], timeoutMs: 30000 };
    const runs: Promise<RunResult | ScriptRunError>[] = [];
    for (let i = 0; i < 4; i++) runs.push(runner.run(req).catch((e: ScriptRunError) => e));
    // The fourth is refused at once, while two run and one waits.
    const fourth = await runs[3];
    assert.ok(fourth instanceof ScriptRunError, 'the run past the queue was refused');
    assert.equal(fourth.code, 'runner_busy');
    assert.match(fourth.message, /maxConcurrentRuns 2, maxQueuedRuns 1/);
    assert.match(fourth.message, /nothing was started/);
    assert.equal(await waitFor(() => started() === 2, 20000), true, 'two runs started');
    assert.equal(started(), 2, 'the third waits while two hold their slots');
    fs.writeFileSync(path.join(dir, 'go'), '');
    const [a, b, c] = (await Promise.all(runs.slice(0, 3))) as RunResult[];
    assert.equal(started(), 3, 'the queued run started once a slot was free');
    for (const r of [a, b, c]) assert.equal(r.exit_code, 0);
    assert.ok(!a.warnings.some((w) => w.includes('queue')) && !b.warnings.some((w) => w.includes('queue')));
    assert.match(c.warnings[0], /waited \d+ ms in the queue for a free run slot: 2 runs were already running \(maxConcurrentRuns 2\)/);
  });

  it('refuses a run cancelled while it waits, and starts nothing for it', async () => {
    const dir = fs.mkdtempSync(path.join(sb.tmp, 'hold-'));
    const runner = sb.runner({ maxConcurrentRuns: 1, maxQueuedRuns: 4 });
    const req = { skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/hold.sh', args: [dir], timeoutMs: 30000 };
    const first = runner.run(req);
    const ac = new AbortController();
    const second = runner.run({ ...req, signal: ac.signal }).catch((e: ScriptRunError) => e);
    assert.equal(await waitFor(() => fs.readdirSync(dir).length === 1, 20000), true);
    ac.abort();
    const e = await second;
    assert.ok(e instanceof ScriptRunError && e.code === 'runner_busy' && /cancelled while it waited/.test(e.message));
    fs.writeFileSync(path.join(dir, 'go'), '');
    assert.equal((await first).exit_code, 0);
    assert.equal(fs.readdirSync(dir).filter((f) => f.startsWith('started.')).length, 1, 'the cancelled run never started');
  });

  for (const sandbox of ['off', 'required'] as const) {
    it(`reports E2BIG as an argument error naming the field and the limit (${sandbox === 'off' ? 'local' : 'sandboxed'})`, async function () {
      if (sandbox === 'required' && !(await sandboxWorks(sb))) this.skip();
      const runner = sb.runner({ sandbox });
      const base = { skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/hello.sh' };
      const refusal = async (extra: object): Promise<ScriptRunError> => {
        const e = await runner.run({ ...base, ...extra }).then(
          (r) => assert.fail(`ran: ${JSON.stringify(r).slice(0, 300)}`),
          (err: unknown) => err,
        );
        assert.ok(e instanceof ScriptRunError, `a ScriptRunError, not ${String(e)}`);
        assert.equal(e.code, 'invalid_request');
        return e;
      };
      const one = await refusal({ args: ['ok', 'x'.repeat(200_000)] });
      assert.match(one.message, /^args\[1\] is 200000 bytes: .*131072 bytes \(E2BIG\)/);
      const many = await refusal({ args: Array.from({ length: 40 }, () => 'y'.repeat(100_000)) });
      assert.match(many.message, /^args is too big .*args 4000040 bytes .*ARG_MAX/);
      const env = await refusal({ env: { BIG: 'z'.repeat(200_000) } });
      assert.match(env.message, /^env\.BIG is 200004 bytes: .*131072 bytes/);
    });
  }
});
