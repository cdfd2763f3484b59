// Issue 23: an ordinary user's process cap (RLIMIT_NPROC = the user's tasks now + the run's allowance) is built on a
// count of the user's tasks taken between runs by the persistent launcher, and on a bound of how far that count can
// have drifted since (taskCount.ts, userTasks.ts). What must hold: the count is the user's tasks (threads included,
// other users' and zombies left out), and the bound never exceeds the tasks the user has now, whatever exited since the count
// (else a run would get more than its allowance). Real /proc, real child processes, the real launcher process.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import { PersistentLauncher } from '../../../src/core/exec/persistentLauncher';
import { countNow, countTasks, fewestNow, readCounters, type CountFs } from '../../../src/core/exec/taskCount';
import { UserTasks } from '../../../src/core/exec/userTasks';

const nodeFs = fs as unknown as CountFs;
const uid = (): number => process.getuid!();

/** The Threads: line of /proc/<pid>/status. */
function threadsOf(pid: number | 'self'): number {
  return Number(/^Threads:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'latin1'))?.[1]);
}

/** The user's tasks now, counted the slow way the runner used to (every status file, real uid), for reference. */
function referenceCount(): number {
  let n = 0;
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const status = fs.readFileSync(`/proc/${name}/status`, 'latin1');
      if (Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]) === uid()) n += Number(/^Threads:\s+(\d+)/m.exec(status)?.[1]);
    } catch {
      // gone meanwhile
    }
  }
  return n;
}

/** Starts `n` `sleep 60` of this user; resolves once each has a pid. */
function sleepers(n: number): ChildProcess[] {
  return Array.from({ length: n }, () => spawn('sleep', ['60'], { stdio: 'ignore' }));
}

/** Kills them and resolves once every one is reaped (Node reaps before 'exit'). */
async function reap(children: ChildProcess[]): Promise<void> {
  await Promise.all(children.map((c) => new Promise<void>((resolve) => (c.exitCode !== null || c.signalCode !== null ? resolve() : (c.once('exit', () => resolve()), c.kill('SIGKILL'))))));
}

describe('core/exec an ordinary user\'s task count for the process cap, taken between runs (issue 23)', function () {
  this.timeout(60000);
  const children: ChildProcess[] = [];
  before(function () {
    if (process.platform !== 'linux' || !readCounters(nodeFs, true)) {
      console.log('      skipped: the count reads Linux /proc (the machine\'s counters and each process\'s task folder)');
      this.skip();
    }
  });
  afterEach(async () => reap(children.splice(0)));

  it("counts a process's threads, as the kernel counts RLIMIT_NPROC", () => {
    // The thread pool may start a thread meanwhile: compared only when the status said the same before and after.
    for (let i = 0; i < 20; i++) {
      const was = threadsOf('self');
      const counted = countTasks(nodeFs, uid(), [String(process.pid)]);
      if (threadsOf('self') !== was) continue;
      assert.ok(was > 1, `node runs ${was} thread: the check would not tell threads from processes`);
      return assert.equal(counted, was);
    }
    assert.fail('the thread count never held still for 20 tries');
  });

  it("counts only the user's processes", () => {
    const names = fs.readdirSync('/proc');
    const owners = new Set(names.filter((n) => /^\d+$/.test(n)).map((n) => fs.statSync(`/proc/${n}`, { throwIfNoEntry: false })?.uid));
    const nobody = [2147483000, 2147483001, 2147483002].find((u) => !owners.has(u))!;
    assert.ok(names.length > 10);
    assert.equal(countTasks(nodeFs, nobody, names), 0, `uid ${nobody} has no process, yet some were counted`);
    assert.ok(countTasks(nodeFs, uid(), names) >= threadsOf('self'), 'this process is not in its own user\'s count');
  });

  it("leaves the user's zombies out: a late reaper frees their places during a run", async () => {
    // sh starts `sleep 0` and execs `sleep 60`, which never reaps it: a zombie of this user until the sleep is killed.
    const parent = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] });
    children.push(parent);
    const zombie = await new Promise<string>((resolve) => parent.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim())));
    const isZombie = () => fs.readFileSync(`/proc/${zombie}/stat`, 'latin1').split(') ')[1]?.[0] === 'Z';
    const end = Date.now() + 10000;
    while (!isZombie() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    assert.ok(isZombie(), `${zombie} did not become a zombie`);
    assert.equal(countTasks(nodeFs, uid(), [zombie]), 0, 'the zombie was counted');
    assert.equal(countTasks(nodeFs, uid(), [String(parent.pid)]), 1, 'its live parent was not counted');
  });

  it('bounds the drift: minus every fork and every exit since the counters', () => {
    const count = { uid: 0, tasks: 100, before: { forks: 1000, tasks: 500 } };
    // 5 forks and the machine's tasks down by 2: 7 exits. The user's tasks now are at least 100 - 5 - 7.
    assert.equal(fewestNow(count, { forks: 1005, tasks: 498 }), 88);
    assert.equal(fewestNow(count, { forks: 1000, tasks: 500 }), 100);
    assert.equal(fewestNow(count, { forks: 999, tasks: 500 }), undefined, 'counters that went back are not a bound');
    assert.equal(fewestNow(count, { forks: 1001, tasks: 510 }), undefined, 'more tasks than forks explain (another view of /proc) is not a bound');
  });

  it('the bound is never above what the user has now, after the user\'s processes exited since the count', async () => {
    children.push(...sleepers(64));
    await new Promise((r) => setTimeout(r, 200));
    const count = countNow(nodeFs, uid())!;
    await reap(children.splice(0));
    const bound = fewestNow(count, readCounters(nodeFs, false)!)!;
    const now = referenceCount();
    console.log(`      counted ${count.tasks} with 64 sleeps; after they exited: bound ${bound}, reference count ${now}`);
    // Other processes of this user may come and go between the two counts: a little slack, far below the 64 that left.
    assert.ok(bound <= now + 16, `the bound ${bound} still holds the 64 sleeps that exited (now ${now})`);
  });

  it('the persistent launcher counts in its own process; a runner takes that count while it drifted little, else counts again', async () => {
    const launcher = new PersistentLauncher();
    try {
      assert.equal(await launcher.start('/bin/sh', 'unlimited'), true, 'the launcher did not start');
      const there = await launcher.count(uid());
      assert.ok(there, 'the launcher gave no count');
      const ref = referenceCount();
      assert.equal(there.uid, uid());
      assert.ok(there.tasks >= threadsOf('self') && there.tasks <= ref + 32, `the launcher counted ${there.tasks}, the reference ${ref}`);
      const tasks = new UserTasks((u) => launcher.count(u));
      tasks.fewest(uid(), 4096); // the first run counts on its start, and asks for the next count
      tasks.prepareNext();
      await tasks.settled();
      // 64 forks since that count: the bound takes them off (a count now would hold them).
      children.push(...sleepers(64));
      await new Promise((r) => setTimeout(r, 200));
      const fromCount = tasks.fewest(uid(), 4096);
      const now = referenceCount();
      console.log(`      with 64 sleeps started since the count: bound ${fromCount} from it, reference count ${now}`);
      assert.ok(fromCount <= now - 64, `the bound ${fromCount} is not the count taken before the 64 forks (now ${now}): counted again?`);
      // An allowance of 64 tolerates a drift of 16: the 64 forks are too many, so it counts again.
      const recounted = tasks.fewest(uid(), 64);
      const after = referenceCount();
      assert.ok(recounted > fromCount + 32 && recounted <= after + 16, `counted again ${recounted}, reference ${after}`);
    } finally {
      launcher.stop();
    }
    assert.equal(await launcher.count(uid()), undefined, 'a stopped launcher still answered');
  });
});
