// Issue 23: an ordinary user's unsandboxed run paid a `sh` on its start (it sets the limits, then execs the script),
// where a root runner's run takes a start prepared between calls (preparedStart.ts). An ordinary user's runner now
// prepares one too; its RLIMIT_NPROC depends on the user's count at the run, so the run's line sets it
// (launcher.ts preparedCommand). What must hold: the line sets the limit the result states, the run sees what a spawned
// run sees, and the limit caps it. Real runner, real launcher, real /proc; as an ordinary user only (root's are in
// preparedStart.test.ts).
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PREPARED_LAUNCHER, preparedCommand } from '../../../src/core/exec/launcher';
import { writeSkill } from '../runtime/runtimeSupport';
import { cleanup, setup, sleepersWithArg, uniqueSleep, waitFor, type Sandbox } from './helpers';

/** Parent pid of `pid` (/proc/<pid>/stat), or undefined once it is gone. */
function parentOf(pid: string): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/** The prepared starts waiting under this process's launchers: `sh -s` whose parent's parent is this process. */
function preparedShs(): number[] {
  const found: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const argv = fs.readFileSync(`/proc/${name}/cmdline`, 'latin1').split('\0');
      const parent = parentOf(name);
      if (argv[1] === '-s' && /(^|\/)sh$/.test(argv[0]) && parent !== undefined && parentOf(String(parent)) === process.pid) found.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

describe("core/exec an ordinary user's prepared start: the line sets RLIMIT_NPROC (issue 23)", function () {
  this.timeout(120000);
  let sb: Sandbox;
  let skills = '';
  before(function () {
    if (process.platform !== 'linux' || process.getuid?.() === 0) {
      console.log('      skipped: an ordinary user on Linux only (RLIMIT_NPROC does not bind root; a root runner prepares its start in a pids cgroup, preparedStart.test.ts)');
      this.skip();
    }
    sb = setup();
    skills = path.join(sb.tmp, 'skills');
    writeSkill(skills, 'probe', {
      files: {
        'scripts/env.sh': 'echo "pid $$"\nprintf "fds "; for f in /proc/$$/fd/*; do printf "%s " "${f##*/}"; done; echo\nenv | LC_ALL=C sort\necho "cwd $(pwd)"\necho "limits $(ulimit -f) $(ulimit -c)"\necho "nproc $(ulimit -u)"\n',
        'scripts/capped.sh': 'echo "pid $$"\ni=0; while [ "$i" -lt "$1" ]; do sleep "$2" & echo "started $!"; i=$((i + 1)); done\n',
      },
    });
  });
  after(() => cleanup(sb));

  const req = (script: string, args: string[] = [], env?: Record<string, string>) => ({ skillName: 'probe', skillRoot: path.join(skills, 'probe'), script, args, timeoutMs: 60000, ...(env ? { env } : {}) });
  const rlimitOf = (processes: string) => /RLIMIT_NPROC (\d+)/.exec(processes)?.[1];
  const stable = (stdout: string, runId: string) => stdout.split(runId).join('<run>').split('\n').filter((l) => !/^(pid|nproc) /.test(l));

  it('a line with a process limit sets it (soft and hard) before it execs the program', async () => {
    // Far above this user's count (a limit below it would let nothing fork), below the usual hard limit. cat is exec'd: no fork.
    const line = preparedCommand(['/bin/cat', '/proc/self/limits'], {}, '/', 50001)!;
    const child = spawn('sh', ['-c', PREPARED_LAUNCHER, 'agent-skills-launcher', '2048', '-', 'sh'], { cwd: '/', env: {}, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (c) => (out += c));
    child.stdin!.end(`${line}\n`);
    const code = await new Promise((resolve) => child.on('close', resolve));
    assert.equal(code, 0);
    assert.match(out, /^Max processes\s+50001\s+50001\s/m, out);
    assert.equal(preparedCommand(['/bin/true'], {}, '/', 0), undefined, 'a limit of 0 is no limit to set');
    assert.equal(preparedCommand(['/bin/true'], {}, '/', 1.5), undefined);
  });

  it('the second run takes the prepared start: the limit its result states, and what the first, spawned run saw', async () => {
    const runner = sb.runner({ sandbox: 'off' });
    const env = { CALL_VALUE: "x'y\nz $(id)" };
    const first = await runner.run(req('scripts/env.sh', [], env));
    assert.equal(first.exit_code, 0, first.stderr);
    assert.equal(await waitFor(() => preparedShs().length === 1, 10000), true, `prepared starts: ${preparedShs().join(', ')}`);
    const [waiting] = preparedShs();
    const second = await runner.run(req('scripts/env.sh', [], env));
    assert.equal(second.exit_code, 0, second.stderr);
    assert.match(second.stdout, new RegExp(`^pid ${waiting}$`, 'm'), 'the second run was not the prepared sh');
    assert.doesNotMatch(first.stdout, new RegExp(`^pid ${waiting}$`, 'm'));
    for (const r of [first, second]) assert.equal(/^nproc (\d+)$/m.exec(r.stdout)?.[1], rlimitOf(r.processes), `${r.processes} / ${r.stdout}`);
    assert.deepEqual(stable(second.stdout, second.run_id), stable(first.stdout, first.run_id));
    await runner.idle();
    assert.equal(await waitFor(() => preparedShs().length === 0, 10000), true, 'a prepared start outlived idle()');
  });

  it("the prepared start's run is capped: 200 sleeps stop near the cap of 16", async () => {
    const runner = sb.runner({ sandbox: 'off', maxRunProcesses: 16 });
    await runner.run(req('scripts/env.sh'));
    assert.equal(await waitFor(() => preparedShs().length === 1, 10000), true, 'no start was prepared');
    const [waiting] = preparedShs();
    const tag = uniqueSleep();
    const r = await runner.run(req('scripts/capped.sh', ['200', tag]));
    const started = r.stdout.split('\n').filter((l) => l.startsWith('started ')).length;
    console.log(`      ${started} of 200 started in a prepared start (cap 16); ${r.processes}`);
    assert.match(r.stdout, new RegExp(`^pid ${waiting}$`, 'm'), 'the run was not the prepared sh');
    // The count is the user's: other processes of this user that end meanwhile free places (as forkBomb.redteam allows).
    assert.ok(started <= 16 + 64 && started >= 4, `${started} started (cap 16)`);
    assert.equal(await waitFor(() => sleepersWithArg(tag).length === 0, 10000), true, 'a sleep outlived the run');
    await runner.idle();
  });
});
