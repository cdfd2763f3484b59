// Red team (issue 11, point 5): without a sandbox the timeout finds double-forked daemons by the run's
// AGENT_SKILLS_RUN marker. Before the fix the call's env could set that variable (the launcher exported it
// over the runtime's), so a model's `env: { AGENT_SKILLS_RUN: "x" }` let a daemon the script starts outlive
// the run. The runtime's marker now wins, like its other variables.
import * as assert from 'node:assert/strict';
import { cleanup, processesWithArg, setup, uniqueSleep, waitFor, type Sandbox } from './helpers';

describe('core/exec run marker (red team)', () => {
  let sb: Sandbox;
  before(() => {
    sb = setup();
  });
  after(() => cleanup(sb));

  it("keeps the run's marker when the call's env sets it, so a double-forked daemon dies at the timeout", async function () {
    this.timeout(120_000); // the wait for the killed sleeps allows 60 s (it ends as soon as they are gone)
    const z = uniqueSleep();
    const r = await sb.runner({ sandbox: 'off', killGraceMs: 200 }).run({
      skillName: 'exec-demo',
      skillRoot: sb.skillRoot,
      env: { AGENT_SKILLS_RUN: 'forged-by-the-model' },
      timeoutMs: 1500,
      command: [`echo "marker=$AGENT_SKILLS_RUN"`, `(setsid sh -c 'sleep ${z}' </dev/null >/dev/null 2>&1 &)`, `sleep ${z}`].join('\n'),
    });
    try {
      assert.equal(r.timed_out, true);
      assert.match(r.stdout, new RegExp(`^marker=${r.run_id}$`, 'm'), r.stdout);
      assert.equal(await waitFor(() => processesWithArg(z).length === 0, 60_000), true, `left running: ${processesWithArg(z).join(' ')}`);
    } finally {
      for (const pid of processesWithArg(z)) process.kill(pid, 'SIGKILL');
    }
  });
});
