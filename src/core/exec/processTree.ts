import * as fs from 'node:fs';

/**
 * Finds and kills every process of a run outside a sandbox, Linux only (/proc): the descendants of the
 * launcher (a `setsid` child left its process group but keeps its parent) and every process of this user
 * whose environment carries the run's marker (a double-forked daemon was reparented to init, but kept the
 * environment it was started with). Processes are stopped first, round after round until no new one
 * appears (a fork loop cannot outrun it), then killed. Limits, stated in the README: a process that
 * re-executes itself with a cleared environment after double-forking is not found; on macOS only the
 * process group is killed.
 */
export function killRunProcesses(rootPid: number | undefined, marker: string): number {
  if (process.platform !== 'linux') return 0;
  return sweepRunProcesses(fs, rootPid, marker).length;
}

/** The processes of a run (the descendants of `rootPid` and whatever carries `marker`), not signalled; Linux only. */
export function runProcessIds(rootPid: number, marker: string): number[] {
  if (process.platform !== 'linux') return [];
  return sweepRunProcesses(fs, rootPid, marker, false);
}

/** The part of `fs` the sweep reads /proc with. */
export interface ProcReader {
  readdirSync(path: string): string[];
  readFileSync(path: string): Buffer;
  readFileSync(path: string, encoding: 'latin1'): string;
}

/**
 * The sweep itself, self-contained (no reference outside its own body but the globals `process` and
 * `Buffer`): the persistent launcher embeds its source text (`sweepRunProcesses.toString()`) to sweep its
 * runs when the runner goes away, so the runner and the launcher share one implementation. Returns the pids
 * signalled; with `kill` false, only finds the run's processes (one scan) and returns them.
 */
export function sweepRunProcesses(procFs: ProcReader, rootPid: number | undefined, marker: string, kill = true): number[] {
  const needle = Buffer.from(`${marker}\0`);
  const signal = (pid: number, sig: NodeJS.Signals): void => {
    try {
      process.kill(pid, sig);
    } catch {
      // Gone, or not ours.
    }
  };
  const parentOf = (pid: number): number | undefined => {
    try {
      const stat = procFs.readFileSync(`/proc/${pid}/stat`, 'latin1');
      // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return fields[0] === 'Z' ? undefined : Number(fields[1]);
    } catch {
      return undefined;
    }
  };
  const hasMarker = (pid: number): boolean => {
    let env: Buffer;
    try {
      env = procFs.readFileSync(`/proc/${pid}/environ`);
    } catch {
      // Another user's process (EACCES) or gone.
      return false;
    }
    const at = env.indexOf(needle);
    return at === 0 || (at > 0 && env[at - 1] === 0);
  };
  // Pids of the run: descendants of `rootPid` and processes whose environment holds the marker.
  const scan = (): number[] => {
    let names: string[];
    try {
      names = procFs.readdirSync('/proc');
    } catch {
      return [];
    }
    const children = new Map<number, number[]>();
    const hits = new Set<number>();
    for (const name of names) {
      const pid = Number(name);
      if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid) continue;
      const ppid = parentOf(pid);
      if (ppid === undefined) continue;
      const list = children.get(ppid);
      if (list) list.push(pid);
      else children.set(ppid, [pid]);
      if (hasMarker(pid)) hits.add(pid);
    }
    if (rootPid !== undefined) {
      const queue = [rootPid];
      while (queue.length) {
        const p = queue.pop()!;
        for (const c of children.get(p) ?? []) {
          if (!hits.has(c)) queue.push(c);
          hits.add(c);
        }
      }
    }
    return [...hits];
  };
  // Only listed (the size watch reads what they hold): no signal.
  if (!kill) return scan();
  const stopped = new Set<number>();
  for (let round = 0; round < 8; round++) {
    const found = scan().filter((p) => !stopped.has(p));
    if (found.length === 0) break;
    for (const pid of found) {
      stopped.add(pid);
      signal(pid, 'SIGSTOP');
    }
  }
  for (const pid of stopped) signal(pid, 'SIGKILL');
  return [...stopped];
}
