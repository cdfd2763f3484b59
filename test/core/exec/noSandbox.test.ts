// Attacks on runs without a sandbox (issue 11, points 3, 5 and 7's pipe grace). Before the change the
// script's parent was the runner itself (its /proc environ held the editor's whole environment), a setsid
// child outlived the timeout, one that kept stdout open held a run with a 2 s timeout for 41 s, and the
// call's env (LD_PRELOAD included) was applied to bwrap itself.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_ENV_ALLOWLIST, ScriptRunError } from '../../../src/core/exec';
import { cleanup, onPath, processesWithArg, sandboxWorks, setup, uniqueSleep, waitFor, type Sandbox } from './helpers';

const RUNTIME_VARS = ['WORKSPACE_DIR', 'SKILLS_DIR', 'WORK_DIR', 'OUTPUT_DIR', 'RUN_DIR', 'SKILL_NAME', 'HOME', 'TMPDIR', 'AGENT_SKILLS_RUN'];

describe('core/exec without a sandbox', () => {
  let sb: Sandbox;
  before(() => {
    sb = setup();
  });
  after(() => cleanup(sb));

  const run = (command: string, timeoutMs = 15000, env?: Record<string, string>) =>
    sb.runner({ killGraceMs: 200 }).run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, command, timeoutMs, ...(env ? { env } : {}) });

  // The script's parent is the runner's persistent launcher, started once with an empty environment: Node
  // adds only its IPC channel variables. Neither a host secret nor the call env of any run (this one, one
  // before it, one running beside it) may show in its /proc environ.
  it("gives the script a persistent parent whose environ holds no host secret and no run's call env", async () => {
    process.env.HOST_SECRET_TOKEN = 'host-secret-value';
    try {
      const runner = sb.runner({ killGraceMs: 200 });
      const go = (command: string, env: Record<string, string>) => runner.run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, command, timeoutMs: 15000, env });
      const first = await go('echo $PPID', { CALL_VAR: 'first-call-secret' });
      assert.equal(first.exit_code, 0, first.stderr);
      // A run beside the reading one: it holds its call env until the reader has looked.
      const flag = path.join(sb.tmp, 'parent-read');
      const beside = go(`while [ ! -e ${flag} ]; do sleep 0.05; done`, { CALL_VAR: 'beside-call-secret' });
      const r = await go(`echo $PPID; tr '\\0' '\\n' < /proc/$PPID/environ; touch ${flag}`, { CALL_VAR: 'own-call-secret' });
      assert.equal(r.exit_code, 0, r.stderr);
      assert.equal((await beside).exit_code, 0);
      const [ppid, ...parent] = r.stdout.trim().split('\n');
      assert.equal(ppid, first.stdout.trim(), 'one launcher for both runs');
      assert.notEqual(Number(ppid), process.pid, 'the parent is not the runner');
      const names = parent.filter(Boolean).map((l) => l.slice(0, l.indexOf('=')));
      // PWD=/ comes from the sh that sets the launcher's file-size limit and execs it.
      const launcherOwn = new Set(['NODE_CHANNEL_FD', 'NODE_CHANNEL_SERIALIZATION_MODE', 'ELECTRON_RUN_AS_NODE', 'PWD']);
      assert.deepEqual(names.filter((n) => !launcherOwn.has(n)), [], `the parent holds: ${parent.join(', ')}`);
      for (const secret of ['host-secret-value', 'first-call-secret', 'beside-call-secret', 'own-call-secret']) assert.ok(!r.stdout.includes(secret), `${secret} is in the parent's environ`);
    } finally {
      delete process.env.HOST_SECRET_TOKEN;
    }
  });

  it('starts a new launcher when the old one died, and ends the runs it was carrying', async () => {
    const runner = sb.runner({ killGraceMs: 200 });
    const go = (command: string) => runner.run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, command, timeoutMs: 15000 });
    const first = await go('echo $PPID');
    const old = Number(first.stdout.trim());
    // The launcher is killed under a running script: that run ends at once, not at its timeout.
    const carried = await go(`kill -9 $PPID; sleep 5; echo survived`);
    assert.ok(!carried.stdout.includes('survived'), carried.stdout);
    const next = await go('echo $PPID');
    assert.equal(next.exit_code, 0, next.stderr);
    assert.notEqual(Number(next.stdout.trim()), old, 'a new launcher');
  });

  it('kills setsid and double-forked processes at the timeout', async function () {
    this.timeout(300_000); // a hang guard above the clock bounds below
    const started = Date.now();
    const z = uniqueSleep();
    const r = await run([`setsid sh -c 'sleep ${z}' </dev/null >/dev/null 2>&1 &`, `(setsid sh -c 'sleep ${z} &' </dev/null >/dev/null 2>&1 &)`, `sleep ${z}`].join('\n'), 1000);
    assert.equal(r.timed_out, true);
    // Far below the 300 s sleeps it must not wait for; a loaded machine stretches the spawning, not that.
    assert.ok(Date.now() - started < 120_000, `returned after ${Date.now() - started} ms`);
    assert.equal(await waitFor(() => processesWithArg(z).length === 0, 60_000), true, `left running: ${processesWithArg(z).join(' ')}`);
  });

  it('stops waiting for a setsid child that keeps stdout open, after the timeout and after the leader exits', async function () {
    this.timeout(300_000); // a hang guard above the clock bounds below
    const z = uniqueSleep();
    const t0 = Date.now();
    const timed = await run(`setsid sh -c 'sleep ${z}' &\nsleep ${z}`, 1000);
    const afterTimeout = Date.now() - t0;
    assert.equal(timed.timed_out, true);
    // Before: the run waited for the child's 300 s.
    assert.ok(afterTimeout < 120_000, `returned after ${afterTimeout} ms (the child sleeps 300 s)`);
    const t1 = Date.now();
    const exited = await run(`setsid sh -c 'sleep ${z}' &\necho leader done`);
    const afterExit = Date.now() - t1;
    assert.equal(exited.exit_code, 0);
    assert.equal(exited.stdout, 'leader done\n');
    assert.ok(afterExit < 120_000, `returned after ${afterExit} ms (the child sleeps 300 s)`);
    assert.equal(await waitFor(() => processesWithArg(z).length === 0, 60_000), true, 'the child that held stdout is still running');
  });

  describe('loader and interpreter-injection variables in env', () => {
    let lib: string | undefined;
    const marker = () => path.join(sb.tmp, 'preload-ran');
    before(function () {
      if (!onPath('cc')) {
        console.log('      note: no C compiler (cc) here: the LD_PRELOAD library is not built; the refusal is still checked');
        return;
      }
      const src = path.join(sb.tmp, 'mark.c');
      fs.writeFileSync(src, `#include <stdio.h>\n__attribute__((constructor)) static void mark(void) { FILE *f = fopen("${marker()}", "a"); if (f) { fputs("ran\\n", f); fclose(f); } }\n`);
      // Inside the skill, as a hostile skill would ship it.
      lib = path.join(sb.skillRoot, 'mark.so');
      execFileSync('cc', ['-shared', '-fPIC', '-o', lib, src]);
      // The library works: preloading it into a program writes the marker.
      execFileSync('true', { env: { ...process.env, LD_PRELOAD: lib } });
      assert.equal(fs.existsSync(marker()), true, 'the test library does not write its marker');
      fs.rmSync(marker());
    });

    for (const sandbox of ['off', 'required'] as const) {
      it(`refuses LD_PRELOAD by name, and the library never runs (sandbox ${sandbox})`, async function () {
        if (sandbox === 'required' && !(await sandboxWorks(sb))) this.skip();
        const env = { LD_PRELOAD: lib ?? path.join(sb.skillRoot, 'mark.so'), NODE_OPTIONS: '--require /x.js', PLAIN: 'ok' };
        await assert.rejects(
          sb.runner({ sandbox }).run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/hello.sh', env }),
          (e: unknown) => {
            assert.ok(e instanceof ScriptRunError && e.code === 'env_refused', String(e));
            const lines = e.message.split('\n');
            assert.equal(lines.length, 2, e.message);
            assert.match(lines[0], /^env "LD_PRELOAD" is refused: the dynamic loader/);
            assert.match(lines[1], /^env "NODE_OPTIONS" is refused: node would take --require/);
            return true;
          },
        );
        assert.equal(fs.existsSync(marker()), false, 'the preloaded library ran');
      });
    }

    it('refuses the other injection variables, and passes ordinary ones to the script', async () => {
      for (const name of ['LD_LIBRARY_PATH', 'LD_AUDIT', 'DYLD_INSERT_LIBRARIES', 'PYTHONSTARTUP', 'PYTHONPATH', 'BASH_ENV', 'ENV', 'PERL5OPT', 'RUBYOPT', 'GCONV_PATH', 'BASH_FUNC_ls', 'JAVA_TOOL_OPTIONS']) {
        await assert.rejects(run('true', 5000, { [name]: 'x' }), (e: unknown) => e instanceof ScriptRunError && e.code === 'env_refused' && e.message.includes(`"${name}"`), name);
      }
      const r = await run('echo "$GREETING"', 5000, { GREETING: 'hi there' });
      assert.equal(r.stdout, 'hi there\n');
    });
  });
});
