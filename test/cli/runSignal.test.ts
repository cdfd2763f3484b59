// Issue 22 point 6: `agent-skills run` stopped by SIGTERM or SIGINT mid-run cancels its run, so the script
// and what it left running with `setsid` die before the command exits, and it says so. (Were the command
// killed outright, the launcher's own sweep would still end them: test/core/exec/lifetime.redteam.test.ts.)
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeSkill } from '../core/runtime/runtimeSupport';
import { processesWithArg, sleepersWithArg, uniqueSleep, ESCAPING_SCRIPT, skipWithoutSetsid } from '../core/exec/helpers';
import { makeTempDir } from '../support/tempDir';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { CLI, waitFor } from './mcpSupport';

describe('agent-skills run stopped by a signal (issue 22.6)', function () {
  this.timeout(60_000);
  let tmp: { dir: string; cleanup: () => void };
  let marker = '';
  before(function () {
    skipWithoutSetsid(this);
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });
  beforeEach(() => {
    tmp = makeTempDir('cli-run-signal-');
    marker = uniqueSleep();
    writeSkill(path.join(tmp.dir, 'skills'), 'esc', { files: { 'scripts/escape.sh': ESCAPING_SCRIPT } });
  });
  afterEach(() => {
    for (const pid of processesWithArg(marker)) process.kill(pid, 'SIGKILL');
    tmp.cleanup();
  });

  for (const sig of ['SIGTERM', 'SIGINT'] as const) {
    it(`cancels the run on ${sig}: the setsid child is gone when the command has exited`, async () => {
      const args = [CLI, 'run', '--no-defaults', '--root', path.join(tmp.dir, 'skills'), '--state-dir', path.join(tmp.dir, 'state'), '--sandbox', 'off', 'esc', 'scripts/escape.sh', marker];
      const child = spawn(process.execPath, args, { cwd: tmp.dir, env: { ...process.env, HOME: tmp.dir, AGENT_SKILLS_STATE_DIR: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      await waitFor('the setsid child to start', () => (sleepersWithArg(marker).length > 0 ? true : undefined), 20_000);
      child.kill(sig);
      const code = await exited;
      assert.match(err, /stopped by a signal; the script and what it started were killed/, err);
      assert.notEqual(code, 0);
      assert.deepEqual(processesWithArg(marker), [], 'the setsid child outlived the command');
    });
  }
});
