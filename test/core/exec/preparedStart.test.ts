// Issue 23 (every bench goal holds): a root runner's unsandboxed run joined its own pids cgroup on its start, and a
// cgroup v1 join waits for a kernel grace period (~10 ms of a call spaced like a tool call, test/bench/exec.bench.ts).
// The next run's sh is now prepared after a run (preparedStart.ts): it sets the limits, joins a fresh cgroup and waits
// for one line on descriptor 3 that execs the script with the run's environment. What must hold of a run started so:
// its words are never run by the shell, its environment, folder, descriptors and limits are those of a spawned run, it
// is capped by its own cgroup, and nothing prepared outlives an idle runner or a killed one.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { inheritedFds } from '../../../src/core/exec/descriptors';
import { PREPARED_LAUNCHER, PREPARED_LINE_MAX, preparedCommand } from '../../../src/core/exec/launcher';
import { pidsParent } from '../../../src/core/exec/pidsCgroup';
import { writeSkill } from '../runtime/runtimeSupport';
import { cleanup, setup, sleepersWithArg, uniqueSleep, waitFor, type Sandbox } from './helpers';

/** Values a shell would act on if a word were left unquoted or its quotes could be closed. */
const HOSTILE = ["it's", '"dq"', '$(touch PWNED)', '`touch PWNED`', '; touch PWNED', "'; touch PWNED; '", 'a\nb\n', '\\n and \\', '$HOME ${PATH}', '*', '-e', '', 'ünï ☃', "'\"$nl\"'", '\r\t'];

/** Prints its argv and environment as JSON, and its folder. */
const PRINT = 'process.stdout.write(JSON.stringify({ argv: process.argv.slice(1), env: process.env, cwd: process.cwd() }))';

/** Runs PREPARED_LAUNCHER (no cgroup: `-`) and writes `line` to its standard input, as the persistent launcher does. */
function prepared(line: string, cwd = '/'): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', PREPARED_LAUNCHER, 'agent-skills-launcher', '2048', '-', 'sh'], { cwd, env: {}, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c) => (stdout += c));
    child.stderr!.on('data', (c) => (stderr += c));
    child.stdin!.end(`${line}\n`);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('core/exec prepared starts: the line, the environment and the cgroup (issue 23)', function () {
  this.timeout(120000);
  let sb: Sandbox;
  before(() => {
    sb = setup();
  });
  after(() => cleanup(sb));

  it('passes hostile arguments and values byte for byte: nothing in them is run or expanded', async () => {
    const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
    HOSTILE.forEach((v, i) => (env[`V${i}`] = v));
    const work = fs.mkdtempSync(path.join(sb.tmp, 'cwd-'));
    const line = preparedCommand([process.execPath, '-e', PRINT, ...HOSTILE], env, work);
    assert.ok(line !== undefined);
    const r = await prepared(line);
    assert.equal(r.code, 0, r.stderr);
    const seen = JSON.parse(r.stdout) as { argv: string[]; env: Record<string, string>; cwd: string };
    assert.deepEqual(seen.argv, HOSTILE);
    // Exactly the run's variables, plus the PWD a sh exports of its own (the folder it was spawned in, as a spawn gives).
    assert.deepEqual(seen.env, { ...env, PWD: fs.realpathSync(work) });
    assert.equal(seen.cwd, fs.realpathSync(work));
    assert.equal(fs.existsSync(path.join(work, 'PWNED')) || fs.existsSync('/PWNED'), false, 'a word was run by the shell');
  });

  it('refuses the names sh sets itself or cannot export, and a long line, so that such a run is spawned as before', () => {
    for (const name of ['PWD', 'PPID', 'IFS', 'OPTIND', 'UID', 'BASH_ENV', 'A-B', 'a.b', '1A']) {
      assert.equal(preparedCommand(['/bin/true'], { [name]: 'x' }, '/'), undefined, name);
    }
    assert.ok(preparedCommand(['/bin/true'], { OLDPWD: '/x', LC_ALL: 'C', _A1: 'y' }, '/'));
    // Too long to read a byte at a time, and a spawn reports E2BIG where sh's exec would only fail (runLimits.test.ts).
    assert.ok(preparedCommand(['/bin/true', 'x'.repeat(PREPARED_LINE_MAX - 100)], {}, '/'));
    assert.equal(preparedCommand(['/bin/true', 'x'.repeat(PREPARED_LINE_MAX)], {}, '/'), undefined);
  });

  it("gives the script the descriptors a spawn gives it: the line's is closed before the exec", async () => {
    const list = ['/bin/sh', '-c', 'for f in /proc/$$/fd/*; do echo "${f##*/}"; done; readlink /proc/$$/fd/0 >&2'];
    const r = await prepared(preparedCommand(list, {}, '/')!);
    assert.equal(r.code, 0, r.stderr);
    const spawned = spawnSync(list[0], list.slice(1), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const fds = (out: string) => out.split('\n').filter(Boolean).map(Number).sort((a, b) => a - b);
    // 0, 1, 2, the folder sh lists (3) and whatever this test process holds without close-on-exec (the launcher closes those first).
    assert.deepEqual(fds(r.stdout), fds(spawned.stdout));
    // Its standard input is /dev/null, as a spawn's is (not the pipe its line came on).
    assert.equal(r.stderr, '/dev/null\n');
    assert.equal(spawned.stderr, '/dev/null\n');
    assert.ok(fds(r.stdout).includes(0) && fds(r.stdout).length <= 4 + inheritedFds().length, r.stdout);
  });

  it('runs nothing when its line never comes (the launcher gone), and reads no more than its line', async () => {
    const none = await new Promise<string>((resolve) => {
      const child = spawn('sh', ['-c', PREPARED_LAUNCHER, 'agent-skills-launcher', '2048', '-', 'sh'], { env: {}, stdio: ['pipe', 'pipe', 'inherit'] });
      let out = '';
      child.stdout!.on('data', (c) => (out += c));
      child.stdin!.end();
      child.on('close', (code) => resolve(`${code} ${out}`));
    });
    assert.equal(none, '0 ');
    // The script's standard input is /dev/null: a second line written after the first is never run, nor read by the script.
    const work = fs.mkdtempSync(path.join(sb.tmp, 'stdin-'));
    const r = await prepared(`${preparedCommand(['/bin/sh', '-c', 'cat; echo ran'], {}, work)!}\ntouch SECOND`);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'ran\n');
    assert.equal(fs.existsSync(path.join(work, 'SECOND')), false, 'the line after the exec was run');
  });

  describe('a root runner without a sandbox', () => {
    let parent = '';
    let skills = '';
    before(function () {
      if (process.platform !== 'linux' || process.getuid?.() !== 0) {
        console.log('      skipped: only a root runner without a sandbox gets a pids cgroup, and so a prepared start (an ordinary user gets RLIMIT_NPROC)');
        this.skip();
      }
      const found = pidsParent();
      if (typeof found !== 'string') {
        console.log(`      skipped: a root run is not capped here, as ${found.why}`);
        this.skip();
      }
      parent = found as string;
      skills = path.join(sb.tmp, 'skills');
      writeSkill(skills, 'probe', {
        files: {
          'scripts/env.sh': 'printf "fds "; for f in /proc/$$/fd/*; do printf "%s " "${f##*/}"; done; echo\nenv | LC_ALL=C sort\necho "cwd $(pwd)"\necho "limits $(ulimit -f) $(ulimit -c)"\nwhile read -r l; do echo "cgroup $l"; done </proc/self/cgroup\n',
          'scripts/capped.sh': 'i=0; while [ "$i" -lt "$1" ]; do sleep "$2" & echo "started $!"; i=$((i + 1)); done\n',
        },
      });
    });

    const req = (script: string, args: string[] = [], env?: Record<string, string>) => ({ skillName: 'probe', skillRoot: path.join(skills, 'probe'), script, args, timeoutMs: 60000, ...(env ? { env } : {}) });
    const cgroupOf = (processes: string) => /a pids cgroup of its own, (\S+)\)$/.exec(processes)?.[1];
    /** What a run's script saw, minus what differs from run to run by design (the run's id and folders). */
    /** Lets the runner's background work after a result begin (the next start is prepared there), as a spaced call would. */
    const afterResult = () => new Promise((resolve) => setImmediate(resolve));
    const stable = (stdout: string, runId: string) => stdout.split(runId).join('<run>').split('\n').filter((l) => !l.startsWith('cgroup '));

    it("the second run takes the prepared start: its own cgroup, the same environment, folder, descriptors and limits as the first, spawned run", async () => {
      const runner = sb.runner({ sandbox: 'off' });
      const env = { CALL_VALUE: "x'y\nz $(id)" };
      const first = await runner.run(req('scripts/env.sh', [], env));
      await afterResult();
      const second = await runner.run(req('scripts/env.sh', [], env));
      assert.equal(first.exit_code, 0, first.stderr);
      assert.equal(second.exit_code, 0, second.stderr);
      const [dir1, dir2] = [cgroupOf(first.processes), cgroupOf(second.processes)];
      assert.ok(dir1?.startsWith(`${parent}/agent-skills-${process.pid}-`) && !dir1.includes('-next-'), `the first run was spawned: ${first.processes}`);
      assert.ok(dir2?.startsWith(`${parent}/agent-skills-${process.pid}-next-`), `the second run did not take a prepared start: ${second.processes}`);
      assert.ok(second.stdout.split('\n').some((l) => /^cgroup \d+:pids:/.test(l) && l.endsWith(dir2!.slice(parent.length))), `the script is not in ${dir2}: ${second.stdout}`);
      assert.deepEqual(stable(second.stdout, second.run_id), stable(first.stdout, first.run_id));
      assert.match(second.stdout, /^CALL_VALUE=x'y$/m);
      // bash holds 255 for its script, and the glob reads the folder with one more (3): nothing else.
      assert.match(second.stdout, /^fds 0 1 2 255 3 $/m, second.stdout.split('\n')[0]);
      assert.equal(await waitFor(() => !fs.existsSync(dir2!), 10000), true, `${dir2} is left after the run`);
      await runner.idle();
    });

    it("a prepared start's cgroup caps the run: 40 sleeps stop at the cap of 16", async () => {
      const runner = sb.runner({ sandbox: 'off', maxRunProcesses: 16 });
      await runner.run(req('scripts/env.sh'));
      await afterResult();
      const tag = uniqueSleep();
      const r = await runner.run(req('scripts/capped.sh', ['40', tag]));
      assert.match(r.processes, /-next-/, r.processes);
      const started = r.stdout.split('\n').filter((l) => l.startsWith('started ')).length;
      console.log(`      ${started} of 40 started in a prepared start (cap 16)`);
      assert.ok(started < 16 && started >= 4, `${started} started (cap 16)`);
      assert.equal(await waitFor(() => sleepersWithArg(tag).length === 0, 10000), true, 'a sleep outlived the run');
      await runner.idle();
    });

    it('idle() kills the prepared start and removes its cgroup', async () => {
      const before = new Set(fs.readdirSync(parent));
      const runner = sb.runner({ sandbox: 'off' });
      await runner.run(req('scripts/env.sh'));
      const made = () => fs.readdirSync(parent).filter((n) => !before.has(n) && n.startsWith(`agent-skills-${process.pid}-next-`));
      assert.equal(await waitFor(() => made().length === 1, 10000), true, `prepared cgroups: ${made().join(', ')}`);
      const [name] = made();
      const held = () => fs.readFileSync(`${parent}/${name}/cgroup.procs`, 'latin1').split('\n').filter(Boolean);
      assert.equal(await waitFor(() => fs.existsSync(`${parent}/${name}`) && held().length === 1, 10000), true, 'the prepared sh never joined its cgroup');
      const pid = Number(held()[0]);
      await runner.idle();
      assert.equal(fs.existsSync(`${parent}/${name}`), false, `${name} is left after idle()`);
      assert.equal(await waitFor(() => !fs.existsSync(`/proc/${pid}`), 10000), true, `the prepared sh ${pid} outlived idle()`);
    });

    it('a runner killed (SIGKILL) with a start prepared: its launcher kills it and removes its cgroup', async () => {
      const child = spawn(process.execPath, ['--import', 'tsx', '-e', `
        const { createScriptRunner } = require(${JSON.stringify(path.resolve(__dirname, '../../../src/core/exec'))});
        const r = createScriptRunner({ stateDir: ${JSON.stringify(path.join(sb.tmp, 'state-killed'))}, sandbox: 'off' });
        r.run(${JSON.stringify(req('scripts/env.sh'))}).then(() => { console.log('ran'); setInterval(() => {}, 1000); });
      `], { cwd: path.resolve(__dirname, '../../..'), stdio: ['ignore', 'pipe', 'inherit'] });
      const pid = child.pid!;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      const ran = new Promise<void>((resolve) => child.stdout!.on('data', (c: Buffer) => c.toString().includes('ran') && resolve()));
      await ran;
      const mine = () => fs.readdirSync(parent).filter((n) => n.startsWith(`agent-skills-${pid}-next-`));
      assert.equal(await waitFor(() => mine().length === 1, 10000), true, `prepared cgroups of the runner: ${mine().join(', ')}`);
      child.kill('SIGKILL');
      await exited;
      // Soon: another root runner on this host would also remove it, but only when it next runs (pidsCgroup.ts removeStale).
      assert.equal(await waitFor(() => mine().length === 0, 3000), true, `${mine().join(', ')} left after the runner was killed`);
    });

    it('a run whose environment names a variable sh sets itself is spawned (with a cgroup of its own), and the prepared start is dropped', async () => {
      const runner = sb.runner({ sandbox: 'off' });
      await runner.run(req('scripts/env.sh'));
      await afterResult();
      const r = await runner.run(req('scripts/env.sh', [], { PPID: 'abc' }));
      assert.equal(r.exit_code, 0, r.stderr);
      const dir = cgroupOf(r.processes);
      assert.ok(dir, r.processes);
      assert.ok(r.stdout.split('\n').some((l) => /^cgroup \d+:pids:/.test(l) && l.endsWith(dir!.slice(parent.length))), `the script is not in ${dir}`);
      await runner.idle();
    });
  });
});
