// The runtime's run_script under an AbortSignal (what the @skills participant passes when the chat request
// is cancelled): the signal reaches the executor, the script and the child it forked are killed long before
// the run's own timeout, and the audit line says the run was cancelled. The executor's own kill of the tree
// is covered in test/core/exec/process.test.ts; this checks the runtime passes the signal through and records it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readAuditFile } from '../../../src/core/audit';
import { createScriptRunner } from '../../../src/core/exec';
import { createSkillsRuntime, type SkillsRuntime } from '../../../src/core/runtime';
import { makeTempDir } from '../../support/tempDir';
import { alive, waitFor } from '../exec/helpers';
import { folderSource, writeSkill } from './runtimeSupport';

// Forks a long sleep, writes "<own pid> <child pid>" to the file named by $PID_FILE, and waits for the child.
const HANG_SH = '#!/bin/sh\nsleep 300 &\necho "$$ $!" > "$PID_FILE.tmp" && mv "$PID_FILE.tmp" "$PID_FILE"\nwait\n';

describe('runtime: cancelling run_script', function () {
  this.timeout(120_000); // the waits for the killed processes allow 60 s (they end as soon as the processes are gone)
  let tmp: { dir: string; cleanup: () => void };
  let rt: SkillsRuntime;
  const pids: number[] = [];

  beforeEach(async () => {
    tmp = makeTempDir('rt-cancel-');
    const skills = path.join(tmp.dir, 'skills');
    writeSkill(skills, 'hang', { description: 'Hangs on purpose. Use when testing cancellation.', files: { 'scripts/hang.sh': HANG_SH } });
    rt = createSkillsRuntime({
      source: folderSource(skills),
      stateDir: path.join(tmp.dir, 'state'),
      executor: createScriptRunner({ stateDir: path.join(tmp.dir, 'exec'), sandbox: 'off', killGraceMs: 200 }),
    });
    await rt.openSession('chat');
  });
  afterEach(async () => {
    // Never leave a sleeper behind when an assertion failed before the kill.
    for (const pid of pids.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
    await rt.flush();
    tmp.cleanup();
  });

  it('kills the script and its child when the signal fires, and audits the run as cancelled', async () => {
    await rt.invoke('load', { names: ['hang'] }, { sessionId: 'chat' });
    const pidFile = path.join(tmp.dir, 'pids');
    const ac = new AbortController();
    const pending = rt.invoke('run_script', { script: 'scripts/hang.sh', env: { PID_FILE: pidFile }, timeout_seconds: 120 }, { sessionId: 'chat', signal: ac.signal });

    assert.ok(await waitFor(() => fs.existsSync(pidFile), 15_000), 'the script never started (no pid file)');
    const [script, child] = fs.readFileSync(pidFile, 'utf8').trim().split(' ').map(Number);
    pids.push(script, child);
    assert.ok(alive(script) && alive(child), 'both processes run before the abort');
    assert.equal(rt.sessions.get('chat')?.lifecycle.hang, 'executing');

    ac.abort();
    const r = await pending;
    if (!r.ok) assert.fail(`the cancelled run returned an error: ${JSON.stringify(r.error)}`);
    const result = r.result as { cancelled: boolean; timed_out: boolean };
    assert.equal(result.cancelled, true);
    assert.equal(result.timed_out, false, 'stopped by the signal, not by its 120 s timeout');
    assert.ok(await waitFor(() => !alive(script) && !alive(child), 60_000), `still running after the abort: ${[script, child].filter(alive).join(', ')}`);
    assert.notEqual(rt.sessions.get('chat')?.lifecycle.hang, 'executing', 'the skill is no longer shown as executing');

    await rt.flush();
    const run = (await readAuditFile(path.join(tmp.dir, 'state', 'audit.jsonl'))).find((l) => l.action === 'run_script');
    assert.ok(run, 'no audit line for the run');
    assert.equal(run.skill, 'hang');
    assert.equal(run.outcome, 'cancelled');
    const details = run.details as { cancelled?: unknown; timed_out?: unknown };
    assert.equal(details.cancelled, true);
    assert.equal(details.timed_out, false);
  });

  it('a run killed at its timeout is audited as timed_out, not ok', async () => {
    await rt.invoke('load', { names: ['hang'] }, { sessionId: 'chat' });
    const r = await rt.invoke('run_script', { command: 'sleep 30', timeout_seconds: 0.3 }, { sessionId: 'chat' });
    assert.ok(r.ok);
    assert.equal((r.result as { timed_out?: unknown }).timed_out, true);
    await rt.flush();
    const run = (await readAuditFile(path.join(tmp.dir, 'state', 'audit.jsonl'))).find((l) => l.action === 'run_script');
    assert.equal(run?.outcome, 'timed_out');
    assert.equal((run?.details as { timed_out?: unknown }).timed_out, true);
  });

  it('a run that is not cancelled is audited as ok with cancelled: false', async () => {
    await rt.invoke('load', { names: ['hang'] }, { sessionId: 'chat' });
    const r = await rt.invoke('run_script', { command: 'true' }, { sessionId: 'chat', signal: new AbortController().signal });
    assert.ok(r.ok);
    await rt.flush();
    const run = (await readAuditFile(path.join(tmp.dir, 'state', 'audit.jsonl'))).find((l) => l.action === 'run_script');
    assert.equal(run?.outcome, 'ok');
    assert.equal((run?.details as { cancelled?: unknown }).cancelled, false);
  });
});
