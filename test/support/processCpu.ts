// CPU time a child process has used, read from /proc (Linux): a measure of work that does not grow with the
// machine's load, unlike wall-clock time, so a unit test can bound the work without timing it.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';

let ticksPerSecond: number | undefined;

function ticksToMs(ticks: number): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  return Math.round((ticks * 1000) / ticksPerSecond);
}

/** One process as /proc/<pid>/stat shows it; undefined once it is gone. */
export interface ProcStat {
  pid: number;
  ppid: number;
  /** R running, S sleeping, D in the disk, Z zombie, T stopped. */
  state: string;
  /** Its own user + system CPU, milliseconds. */
  ownMs: number;
  /** User + system CPU of the children it has waited for (and of theirs), milliseconds. */
  reapedMs: number;
  /** When it started (clock ticks after boot): with the pid, names one process even if the pid is reused. */
  startTicks: number;
}

export function procStat(pid: number): ProcStat | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces: count fields from the last ')'.
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // f[0] is field 3 (state), f[1] field 4 (ppid); utime, stime, cutime, cstime are fields 14 to 17, starttime 22.
  return {
    pid,
    ppid: Number(f[1]),
    state: f[0],
    ownMs: ticksToMs(Number(f[11]) + Number(f[12])),
    reapedMs: ticksToMs(Number(f[13]) + Number(f[14])),
    startTicks: Number(f[19]),
  };
}

/** User + system CPU milliseconds used so far by process `pid` (its own threads, not its children). */
export function processCpuMs(pid: number): number {
  const s = procStat(pid);
  if (!s) throw new Error(`process ${pid} is gone: no /proc/${pid}/stat`);
  return s.ownMs;
}

/** The pids of `pid`'s live children: from each thread's children file, or by parent id over /proc without one. */
function childPids(pid: number, all: () => ProcStat[]): number[] {
  let tasks: string[];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const kids: number[] = [];
  for (const tid of tasks) {
    let list: string;
    try {
      list = fs.readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8');
    } catch (e) {
      // A kernel without CONFIG_PROC_CHILDREN: look at every process's parent instead.
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' && fs.existsSync(`/proc/${pid}/task/${tid}`)) return all().filter((s) => s.ppid === pid).map((s) => s.pid);
      continue;
    }
    for (const k of list.split(' ')) if (k.trim()) kids.push(Number(k));
  }
  return kids;
}

/** Process `root` and its live descendants, root first. */
export function processTree(root: number): ProcStat[] {
  let everyone: ProcStat[] | undefined;
  const all = () =>
    (everyone ??= fs
      .readdirSync('/proc')
      .filter((n) => /^\d+$/.test(n))
      .map((n) => procStat(Number(n)))
      .filter((s): s is ProcStat => s !== undefined));
  const first = procStat(root);
  const tree = first ? [first] : [];
  for (let i = 0; i < tree.length; i++) {
    for (const kid of childPids(tree[i].pid, all)) {
      const s = procStat(kid);
      if (s) tree.push(s);
    }
  }
  return tree;
}

/**
 * The CPU time of process `root` and all its descendants, counted by reading the tree every so often: each process
 * seen counts with its own time at its last reading, whether or not it is still alive. Parents' reaped time is not
 * used, since a child reparented to init (esbuild's service outlives the build script that started it) never shows
 * there. A process born and gone between two readings is missed; read every 100-200 ms, that is little work.
 */
export class TreeCpuMeter {
  private readonly seen = new Map<string, number>();
  constructor(private readonly root: number) {}

  /** Reads the tree now; returns the CPU milliseconds counted so far. */
  read(): number {
    for (const s of processTree(this.root)) this.seen.set(`${s.pid}@${s.startTicks}`, s.ownMs);
    let total = 0;
    for (const ms of this.seen.values()) total += ms;
    return total;
  }
}

/** The live processes of a tree, one line each (pid, state, command line), for a message naming what hung. */
export function describeTree(root: number): string {
  const lines = processTree(root).map((s) => {
    let cmd = '';
    try {
      cmd = fs.readFileSync(`/proc/${s.pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    } catch {
      /* gone meanwhile */
    }
    return `  pid ${s.pid} (${s.state}, ${s.ownMs} ms of CPU): ${cmd.length > 300 ? `${cmd.slice(0, 300)}…` : cmd}`;
  });
  return lines.length ? lines.join('\n') : '  (none left)';
}

/**
 * Resolves with `work()`'s result, or rejects once process `pid` has used more than `budgetMs` of CPU since the
 * call (checked every `everyMs`): a bound on the work done for the answer, whatever the wall-clock time. Past
 * `hangMs` by the clock it rejects too, as a hang (no answer and little work), naming the process and its state.
 */
export async function withinCpu<T>(
  pid: number,
  budgetMs: number,
  work: () => Promise<T>,
  what: string,
  { everyMs = 50, hangMs = 300_000 }: { everyMs?: number; hangMs?: number } = {},
): Promise<{ value: T; cpuMs: number }> {
  const start = processCpuMs(pid);
  let timer: NodeJS.Timeout | undefined;
  let guard: NodeJS.Timeout | undefined;
  const over = new Promise<never>((_, reject) => {
    timer = setInterval(() => {
      const used = processCpuMs(pid) - start;
      if (used > budgetMs) reject(new Error(`${what}: the process used ${used} ms of CPU without answering (budget ${budgetMs} ms)`));
    }, everyMs);
    guard = setTimeout(() => {
      const s = procStat(pid);
      const state = s ? `state ${s.state}, ${s.ownMs - start} ms of CPU used meanwhile (budget ${budgetMs} ms)` : 'the process is gone';
      reject(new Error(`${what}: no answer after ${hangMs / 1000} s by the clock, a hang guard far above a loaded run; process ${pid}: ${state}`));
    }, hangMs);
  });
  try {
    const value = await Promise.race([work(), over]);
    return { value, cpuMs: processCpuMs(pid) - start };
  } finally {
    clearInterval(timer);
    clearTimeout(guard);
  }
}
