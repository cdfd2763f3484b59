// Issue 22 (stop 31, left): a root runner without a sandbox gives each run a pids cgroup of its own. It was removed
// after the run by a retry on an unreferenced timer, so a CLI that exited first, or was killed, left it behind (empty)
// until some later root run swept the cgroups of gone runners: 1 was left after the full suite. Now the run's result
// waits for its removal (bounded), and the persistent launcher removes the cgroups of its runs when the runner goes
// away in the middle of one. Real CLI, the host's real cgroup v1 pids hierarchy (pidsCgroup.ts); root only (an
// ordinary user gets RLIMIT_NPROC). With the launcher's removal taken out, the SIGKILL test fails (the empty cgroup stays).
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pidsParent } from '../../../src/core/exec/pidsCgroup';
import { writeSkill } from '../runtime/runtimeSupport';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../../support/ensureBuilt';
import { CLI } from '../../cli/mcpSupport';
import { cleanup, setup, sleepersWithArg, uniqueSleep, waitFor, type Sandbox } from './helpers';

/** Starts `$1` background `sleep $2`s, says so, then waits for them. */
const BACKGROUND = 'i=0; while [ "$i" -lt "$1" ]; do sleep "$2" & i=$((i + 1)); done\necho started\n[ "$3" = wait ] && wait\nexit 0\n';

/** Prints its own cgroup lines, then starts up to `$1` background `sleep $2`s, printing each start (dash ends at the first failed fork). */
const CAPPED = 'while read -r l; do echo "cgroup $l"; done </proc/self/cgroup\ni=0; while [ "$i" -lt "$1" ]; do sleep "$2" & echo "started $!"; i=$((i + 1)); done\n';

let parent = '';

/** The pids cgroups a runner with this pid made (`agent-skills-<pid>-<run>`). */
function cgroupsOf(pid: number): string[] {
  return fs.readdirSync(parent).filter((n) => n.startsWith(`agent-skills-${pid}-`));
}

describe("core/exec a root runner's pids cgroups are removed even when the CLI goes first (issue 22)", function () {
  this.timeout(120000);
  let sb: Sandbox;
  let skills: string;
  before(async function () {
    if (process.platform !== 'linux' || process.getuid?.() !== 0) {
      console.log('      skipped: only a root runner without a sandbox gets a pids cgroup (an ordinary user gets RLIMIT_NPROC; forkBomb.redteam tests both)');
      this.skip();
    }
    const found = pidsParent();
    if (typeof found !== 'string') {
      console.log(`      skipped: a root run is not capped here, as ${found.why} (its result says so: forkBomb.redteam)`);
      this.skip();
    }
    parent = found as string;
    console.log(`      runs' pids cgroups are made in ${parent}`);
    this.timeout(BUILD_TIMEOUT_MS);
    await ensureBuilt();
    sb = setup();
    skills = path.join(sb.tmp, 'skills');
    writeSkill(skills, 'bg', { files: { 'scripts/bg.sh': BACKGROUND, 'scripts/capped.sh': CAPPED } });
  });
  after(() => cleanup(sb));

  const cliArgs = (...script: string[]) => [CLI, 'run', '--json', '--no-defaults', '--root', skills, '--state-dir', path.join(sb.tmp, 'state'), '--sandbox', 'off', 'bg', 'scripts/bg.sh', ...script];

  it('the script runs inside its own pids cgroup, whose pids.max stops a loop of 40 sleeps at the cap of 16', async () => {
    const tag = uniqueSleep();
    const r = await sb.runner({ sandbox: 'off', maxRunProcesses: 16 }).run({ skillName: 'bg', skillRoot: path.join(skills, 'bg'), script: 'scripts/capped.sh', args: ['40', tag], timeoutMs: 60000 });
    const dir = /a pids cgroup of its own, (\S+)\)$/.exec(r.processes)?.[1];
    assert.ok(dir?.startsWith(`${parent}/agent-skills-${process.pid}-`), r.processes);
    const started = r.stdout.split('\n').filter((l) => l.startsWith('started ')).length;
    const lines = r.stdout.split('\n').filter((l) => l.startsWith('cgroup '));
    console.log(`      ${started} of 40 started (cap 16); ${lines.join(' | ')}`);
    // The script's own view: its pids line (`N:pids:/…`) names the run's folder under the hierarchy's root.
    const own = dir!.slice(dir!.indexOf('/agent-skills'));
    assert.ok(lines.some((l) => /^cgroup \d+:pids:/.test(l) && l.endsWith(own)), `the script is not in ${own}: ${lines.join(' | ')}`);
    assert.ok(started < 16, `${started} started past the cap of 16`);
    assert.ok(started >= 4, `only ${started} started`);
    assert.equal(await waitFor(() => sleepersWithArg(tag).length === 0, 10000), true, 'a sleep outlived the run');
    assert.equal(fs.existsSync(dir!), false, `${dir} is left after the run`);
  });

  it('a CLI run whose script left 100 background processes: its cgroup is gone when the command has exited', () => {
    const tag = uniqueSleep();
    const r = spawnSync(process.execPath, cliArgs('100', tag), { cwd: sb.tmp, env: { ...process.env, HOME: sb.tmp, AGENT_SKILLS_STATE_DIR: '' }, encoding: 'utf8', timeout: 60000 });
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    const dir = /a pids cgroup of its own, (\S+)\)/.exec(r.stdout)?.[1];
    assert.ok(dir, `the run had no pids cgroup: ${r.stdout}`);
    // Checked at once: the command's exit waited for the removal.
    assert.equal(fs.existsSync(dir), false, `${dir} is left after the CLI exited`);
    assert.deepEqual(cgroupsOf(r.pid!), []);
    assert.deepEqual(sleepersWithArg(tag), [], 'a background sleep outlived the run');
  });

  it('a CLI killed (SIGKILL) in the middle of a run: its launcher kills the run and removes its cgroup', async () => {
    const tag = uniqueSleep();
    const child = spawn(process.execPath, cliArgs('50', tag, 'wait'), { cwd: sb.tmp, env: { ...process.env, HOME: sb.tmp, AGENT_SKILLS_STATE_DIR: '' }, stdio: 'ignore' });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const pid = child.pid!;
    // The run is in its cgroup once all 50 sleeps are.
    assert.equal(await waitFor(() => sleepersWithArg(tag).length === 50, 60000), true, `${sleepersWithArg(tag).length} of 50 sleeps started`);
    const made = cgroupsOf(pid);
    assert.equal(made.length, 1, `cgroups of the CLI: ${made.join(', ')}`);
    child.kill('SIGKILL');
    await exited;
    const gone = await waitFor(() => cgroupsOf(pid).length === 0, 10000);
    assert.equal(gone, true, `${made[0]} is left (tasks in it: ${fs.existsSync(`${parent}/${made[0]}`) ? fs.readFileSync(`${parent}/${made[0]}/cgroup.procs`, 'utf8').split('\n').filter(Boolean).length : 0})`);
    assert.equal(await waitFor(() => sleepersWithArg(tag).length === 0, 10000), true, 'a sleep outlived the killed CLI');
  });
});
