/**
 * Counting a user's tasks (processes and threads) for an ordinary user's RLIMIT_NPROC (processLimit.ts), and bounding
 * how far such a count can have drifted since it was taken, so it can be taken between runs instead of on a run's
 * start.
 *
 * The kernel counts RLIMIT_NPROC per real uid over all of the user's tasks, and has no call that says that count. So
 * the runner counts over /proc: one `stat` of `/proc/<pid>/task` per process gives its owner and its threads (the
 * folder's link count is 2 plus its threads), where reading each `status` cost 5 times as much (18 to 150 ms a run at
 * load 21 with ~550 processes). The owner is the effective uid of a process the kernel lets be dumped and root
 * otherwise; a process whose effective and real uid differ is not dumpable unless it asks to be (commit_creds), so a
 * setuid program the user started counts as root's: the count can only come out lower, which makes the cap stricter.
 * Zombies are left out for the same reason (their exe link is gone): see {@link countTasks}.
 *
 * Between runs: the machine's counters, forks since boot (`processes` in /proc/stat) and tasks now (/proc/loadavg),
 * are read before a count. At a run's start they are read again (two small reads, ~30 us). Every task counted either
 * lived when the counters were read or was forked since, and every task that lived then and is gone now exited since,
 * so the user's tasks now are at least the count minus the forks and minus the exits since (exits = forks minus the
 * growth in tasks). That bound is what the cap is built on: the run never gets more than its allowance, whatever
 * happened since the count; it gets less by the drift, which is why a count that drifted too far is taken again.
 *
 * The functions are self-contained (only their arguments): the persistent launcher embeds their source
 * (launcherProgram.ts) to count between runs in its own process, so the runner's event loop never waits on /proc.
 */

/** What the counting reads of the file system (node:fs, or a test's). */
export interface CountFs {
  readdirSync(path: string): string[];
  readlinkSync(path: string): string;
  readFileSync(path: string, encoding: 'latin1'): string;
  statSync(path: string, options: { throwIfNoEntry: false }): { uid: number; nlink: number } | undefined;
}

/** The kernel's machine-wide counters: forks since boot and tasks that exist now (zombies until reaped included). */
export interface MachineCounters {
  forks: number;
  tasks: number;
}

/** A count of `uid`'s tasks and the machine's counters read just before it. */
export interface TaskCount {
  uid: number;
  tasks: number;
  before: MachineCounters;
}

/**
 * The machine's counters; undefined where /proc does not give them. `before` a count the forks are read first, after
 * it (at the run's start) last: the forks then cover every task that the two reads of the tasks can differ by.
 */
export function readCounters(fs: CountFs, before: boolean): MachineCounters | undefined {
  try {
    const forks = (): number => Number(/^processes (\d+)$/m.exec(fs.readFileSync('/proc/stat', 'latin1'))?.[1]);
    const tasks = (): number => Number(/^\S+ \S+ \S+ \d+\/(\d+) /.exec(fs.readFileSync('/proc/loadavg', 'latin1'))?.[1]);
    const after = before ? undefined : tasks();
    const f = forks();
    const t = after ?? tasks();
    return Number.isSafeInteger(f) && Number.isSafeInteger(t) ? { forks: f, tasks: t } : undefined;
  } catch {
    return undefined;
  }
}

/** Tasks (threads included) owned by `uid` among the /proc entries `names` (entries that are not processes are passed over). */
export function countTasks(fs: CountFs, uid: number, names: readonly string[]): number {
  let n = 0;
  for (const name of names) {
    const c = name.charCodeAt(0);
    if (c < 48 || c > 57) continue;
    let st;
    try {
      st = fs.statSync(`/proc/${name}/task`, { throwIfNoEntry: false });
    } catch {
      continue; // gone meanwhile, or hidden (hidepid)
    }
    if (!st || st.uid !== uid) continue;
    // A zombie (its program gone: no exe) is left out. The kernel counts it until it is reaped, and a reaper that
    // comes late (a container's init) would free its place during the run: counted, that place went to the run.
    try {
      fs.readlinkSync(`/proc/${name}/exe`);
    } catch (e) {
      if ((e as { code?: string }).code === 'ENOENT') continue;
    }
    n += Math.max(1, st.nlink - 2);
  }
  return n;
}

/**
 * The fewest tasks the count's user can have now: the count minus every fork and every exit since its counters.
 * Undefined when the counters moved in a way no fork and exit explain (a reset, another view of /proc): count again.
 */
export function fewestNow(count: TaskCount, now: MachineCounters): number | undefined {
  const forks = now.forks - count.before.forks;
  const exits = forks - (now.tasks - count.before.tasks);
  if (forks < 0 || exits < 0) return undefined;
  return count.tasks - forks - exits;
}

/** A count of `uid`'s tasks taken now, all at once; undefined where /proc does not give one. */
export function countNow(fs: CountFs, uid: number): TaskCount | undefined {
  const before = readCounters(fs, true);
  if (!before) return undefined;
  try {
    return { uid, tasks: countTasks(fs, uid, fs.readdirSync('/proc')), before };
  } catch {
    return undefined;
  }
}
