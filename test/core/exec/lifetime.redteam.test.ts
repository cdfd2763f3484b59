// Issue 22 point 6: every process a run started dies when the runner's process ends mid-run, whatever ends
// it, sandboxed or not. The script starts a `setsid` child (it leaves the run's process group and session)
// and waits; the runner's process (runnerChild.ts) is then killed. Before, the group died with the
// persistent launcher but the setsid child lived on, reparented to init.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cleanup, processesWithArg, sandboxWorks, setup, sleepersWithArg, uniqueSleep, waitFor, type Sandbox, ESCAPING_SCRIPT, skipWithoutSetsid } from './helpers';

const CHILD = path.join(__dirname, 'runnerChild.ts');

function startRunner(sb: Sandbox, sandbox: 'off' | 'required', marker: string): ChildProcess {
  const request = { skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/escape.sh', args: [marker], timeoutMs: 120000 };
  return spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify({ options: { stateDir: sb.stateDir, sandbox }, request })], { stdio: ['ignore', 'pipe', 'pipe'] });
}

describe('core/exec process lifetime when the runner ends (issue 22.6)', function () {
  // Deadlines for a hang only (each wait below ends on the state it waits for): at load 25 a runner started with
  // tsx and a sandbox's two stages take tens of seconds.
  this.timeout(300_000);
  let sb: Sandbox;
  before(function () {
    skipWithoutSetsid(this);
    sb = setup();
    fs.writeFileSync(path.join(sb.skillRoot, 'scripts', 'escape.sh'), ESCAPING_SCRIPT);
  });
  after(() => cleanup(sb));

  for (const sandbox of ['off', 'required'] as const) {
    for (const sig of ['SIGTERM', 'SIGKILL'] as const) {
      it(`kills the setsid child of a ${sandbox === 'off' ? 'local' : 'sandboxed'} run when the runner gets ${sig}`, async function () {
        if (sandbox === 'required' && !(await sandboxWorks(sb))) this.skip();
        const marker = uniqueSleep();
        const runner = startRunner(sb, sandbox, marker);
        let out = '';
        runner.stdout!.on('data', (c: Buffer) => (out += c.toString()));
        runner.stderr!.on('data', (c: Buffer) => (out += c.toString()));
        const exited = new Promise<void>((resolve) => runner.once('exit', () => resolve()));
        try {
          assert.equal(await waitFor(() => sleepersWithArg(marker).length > 0, 120_000), true, `the setsid child never started: ${out}`);
          runner.kill(sig);
          await exited;
          assert.equal(await waitFor(() => processesWithArg(marker).length === 0, 60_000), true, `the setsid child ${processesWithArg(marker)} outlived the runner`);
        } finally {
          for (const pid of processesWithArg(marker)) process.kill(pid, 'SIGKILL');
          if (runner.exitCode === null && runner.signalCode === null) runner.kill('SIGKILL');
        }
      });
    }
  }
});
