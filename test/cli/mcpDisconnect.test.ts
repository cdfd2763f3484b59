// Issue 22 point 6: a script an MCP client started dies when that client disconnects mid-run, even one
// whose child left the run's process group and session (`setsid`). Before, without a sandbox, the child
// outlived the session: stdio closed, or an HTTP client gone, and it ran on. The real SDK client talks to
// the real `dist/cli.js mcp`; the escaped child is found by its unique `sleep` argument in /proc. Each case runs
// without a sandbox and in one (`--sandbox required`: the point says "sandbox or not"; a sandboxed child is seen in
// the host's /proc too, and the sandbox's own setsid does not keep it from the cancel).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from '../support/tempDir';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { writeSkill } from '../core/runtime/runtimeSupport';
import { processesWithArg, sleepersWithArg, uniqueSleep, ESCAPING_SCRIPT, skipWithoutSetsid } from '../core/exec/helpers';
import { httpClient, serverArgs, startHttpProcess, stdioClient, waitFor } from './mcpSupport';
import { createScriptRunner } from '../../src/core/exec';

describe('agent-skills mcp: a client that disconnects mid-run leaves no process behind (issue 22.6)', function () {
  // Deadlines for a hang only: each wait ends on the state it waits for (a sandbox's two stages are slow under load).
  this.timeout(180_000);
  let tmp: { dir: string; cleanup: () => void };
  let skills: string;
  let state: string;
  let marker: string;
  /** Why there is no sandbox here, or undefined when there is one (the sandboxed cases then skip, saying so). */
  let noSandbox: string | undefined;
  before(async function () {
    skipWithoutSetsid(this);
    this.timeout(BUILD_TIMEOUT_MS);
    const probe = makeTempDir('mcp-disconnect-probe-');
    try {
      const status = await createScriptRunner({ stateDir: path.join(probe.dir, 'state'), sandbox: 'auto' }).sandboxStatus();
      noSandbox = status.sandboxed ? undefined : status.reason;
    } finally {
      probe.cleanup();
    }
    await ensureBuilt();
  });
  const requireSandbox = (ctx: Mocha.Context, sandbox: 'off' | 'required') => {
    if (sandbox === 'off' || noSandbox === undefined) return;
    console.log(`      skipped: no working sandbox here (${noSandbox})`);
    ctx.skip();
  };
  beforeEach(() => {
    tmp = makeTempDir('mcp-disconnect-');
    skills = path.join(tmp.dir, 'skills');
    state = path.join(tmp.dir, 'state');
    marker = uniqueSleep();
    writeSkill(skills, 'esc', { body: 'Run scripts/escape.sh.', files: { 'scripts/escape.sh': ESCAPING_SCRIPT } });
  });
  afterEach(() => {
    for (const pid of processesWithArg(marker)) process.kill(pid, 'SIGKILL');
    tmp.cleanup();
  });

  const escaped = () => (sleepersWithArg(marker).length > 0 ? true : undefined);
  const gone = () => (processesWithArg(marker).length === 0 ? true : undefined);
  const call = () => ({ name: 'run_skill_script', arguments: { skill: 'esc', script: 'scripts/escape.sh', args: [marker], timeout_seconds: 120 } });

  for (const sandbox of ['off', 'required'] as const) {
    const label = sandbox === 'off' ? ' (no sandbox)' : ' (sandboxed)';
    it(`over stdio${label}: closing the client ends the setsid child`, async function () {
      requireSandbox(this, sandbox);
      const c = await stdioClient(serverArgs(skills, state, ['--allow-scripts', '--sandbox', sandbox]));
      await c.client.callTool({ name: 'load_skills', arguments: { names: ['esc'] } });
      const running = c.client.callTool(call()).catch(() => undefined);
      await waitFor('the setsid child to start', escaped, 90_000);
      await c.client.close();
      await running;
      await waitFor(`the setsid child ${processesWithArg(marker)} to die after the client closed`, gone, 30_000);
    });

    it(`over HTTP${label}: a client gone mid-call ends the setsid child while the server stays up`, async function () {
      requireSandbox(this, sandbox);
      const s = await startHttpProcess(serverArgs(skills, state, ['--http', '127.0.0.1:0', '--allow-scripts', '--sandbox', sandbox]));
      try {
        const c = await httpClient(s.url);
        await c.client.callTool({ name: 'load_skills', arguments: { names: ['esc'] } });
        const running = c.client.callTool(call()).catch(() => undefined);
        await waitFor('the setsid child to start', escaped, 90_000);
        // The SDK client's close aborts its request in flight: the connection drops, the session stays.
        await c.client.close();
        await running;
        await waitFor(`the setsid child ${processesWithArg(marker)} to die after the client went away`, gone, 30_000);
        assert.equal(s.child.exitCode, null, 'the server is still running');

        // A session ended by DELETE (terminateSession) cancels its runs as well.
        const d = await httpClient(s.url);
        await d.client.callTool({ name: 'load_skills', arguments: { names: ['esc'] } });
        const second = d.client.callTool(call()).catch(() => undefined);
        await waitFor('the second setsid child to start', escaped, 90_000);
        await d.transport.terminateSession();
        await waitFor(`the setsid child ${processesWithArg(marker)} to die after DELETE`, gone, 30_000);
        await d.client.close();
        await second;
      } finally {
        await s.stop();
      }
    });
  }
});
