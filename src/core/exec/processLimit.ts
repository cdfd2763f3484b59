import * as fs from 'node:fs';

/**
 * The cap on the processes and threads one run may have (a fork bomb stops there), set by the launcher's `sh` as
 * RLIMIT_NPROC just before it execs the script. The kernel counts that limit per real uid: in a bubblewrap sandbox
 * per uid inside the run's own user namespace (only the run's tasks, plus bwrap's init), without a sandbox over every
 * process of the runner's user, so there the limit is the user's count now plus the run's allowance. It never binds
 * root (the kernel exempts uid 0): a root runner without a sandbox gets a pids cgroup of its own where the cgroup v1
 * pids hierarchy is writable (the launcher joins it before the exec), else it is not capped, and the result says so.
 */
export interface ProcessCap {
  /** The RLIMIT_NPROC the launcher sets, a pids cgroup folder it joins (absolute), or `-` for none. */
  rlimit: string;
  /** What the run result says of it. */
  said: string;
  /** A root runner's pids cgroup of its own (the folder in {@link rlimit}): removed after the run, or by the launcher when the runner goes first. */
  cgroup?: string;
  /** After the run: kills what is left in the cgroup and removes it; resolves once it is gone or after {@link CGROUP_REMOVAL_MS}. */
  release?: () => Promise<boolean>;
}

/** How long the removal of a run's cgroup waits for its killed processes to be reaped (the folder is busy until then). */
export const CGROUP_REMOVAL_MS = 5000;

/** Where a root runner makes its runs' pids cgroups (cgroup v1; v2 would need the pids controller delegated). */
export const PIDS_CGROUP_ROOT = '/sys/fs/cgroup/pids';

/** The sandbox's own tasks counted beside the script's: bwrap's init (pid 1 of the namespace). */
const SANDBOX_OVERHEAD = 1;

/** The cap for a run allowed `allowance` processes and threads, started in a user namespace or not, by `uid`. */
export function processCap(allowance: number, userNamespace: boolean, uid: number | undefined = process.getuid?.(), runId = ''): ProcessCap {
  if (userNamespace) return { rlimit: String(allowance + SANDBOX_OVERHEAD), said: `at most ${allowance} processes and threads (RLIMIT_NPROC in the sandbox's user namespace)` };
  if (uid === undefined) return { rlimit: '-', said: 'not capped: this platform has no RLIMIT_NPROC the runner can set' };
  if (uid === 0) return pidsCgroup(allowance, runId) ?? { rlimit: '-', said: `not capped: the kernel does not apply RLIMIT_NPROC to root and ${PIDS_CGROUP_ROOT} (a cgroup v1 pids hierarchy) is not writable here; run agent-skills as an ordinary user or with the sandbox on` };
  const now = userTasks(uid);
  const hard = hardLimit();
  const limit = Math.min(now + allowance, hard ?? Number.MAX_SAFE_INTEGER);
  return { rlimit: String(limit), said: `at most ${limit - now} processes and threads more than your user's ${now} (RLIMIT_NPROC ${limit}, counted over all of your user's processes)` };
}

/** Tasks (threads included) whose real uid is `uid`, from /proc (0 where there is none). */
export function userTasks(uid: number): number {
  let names: string[];
  try {
    names = fs.readdirSync('/proc');
  } catch {
    return 0;
  }
  let count = 0;
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    let status: string;
    try {
      status = fs.readFileSync(`/proc/${name}/status`, 'latin1');
    } catch {
      continue; // gone meanwhile
    }
    const real = /^Uid:\s+(\d+)/m.exec(status)?.[1];
    if (Number(real) !== uid) continue;
    count += Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? 1);
  }
  return count;
}

/** This process's hard RLIMIT_NPROC (a child cannot set more), undefined when unlimited or unknown. */
function hardLimit(): number | undefined {
  try {
    const line = /^Max processes\s+\S+\s+(\S+)/m.exec(fs.readFileSync('/proc/self/limits', 'latin1'))?.[1];
    return line && /^\d+$/.test(line) ? Number(line) : undefined;
  } catch {
    return undefined;
  }
}

/** A pids cgroup `agent-skills-<pid>-<runId>` limited to `allowance`, or undefined where it cannot be made. */
function pidsCgroup(allowance: number, runId: string): ProcessCap | undefined {
  const dir = `${PIDS_CGROUP_ROOT}/agent-skills-${process.pid}-${runId.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  removeStale();
  try {
    fs.mkdirSync(dir);
  } catch {
    return undefined;
  }
  try {
    fs.writeFileSync(`${dir}/pids.max`, String(allowance));
  } catch {
    removeCgroup(dir, 0);
    return undefined;
  }
  return { rlimit: dir, cgroup: dir, said: `at most ${allowance} processes and threads (a pids cgroup of its own, ${dir})`, release: () => removeCgroup(dir, CGROUP_REMOVAL_MS) };
}

/** The part of `fs` {@link removeCgroupOnce} uses. */
export interface CgroupFs {
  readFileSync(path: string, encoding: 'latin1'): string;
  rmdirSync(path: string): void;
}

/**
 * One try at removing a run's pids cgroup: SIGKILLs what is left in it, then removes the folder (the kernel refuses
 * while a task, a zombie included, is in it). True once it is gone. Self-contained (only its arguments): the
 * persistent launcher embeds its source (launcherProgram.ts) to remove its runs' cgroups when the runner goes first.
 */
export function removeCgroupOnce(fs: CgroupFs, kill: (pid: number) => void, dir: string): boolean {
  try {
    for (const pid of fs.readFileSync(`${dir}/cgroup.procs`, 'latin1').split('\n')) {
      if (!pid) continue;
      try {
        kill(Number(pid));
      } catch {
        // gone meanwhile
      }
    }
    fs.rmdirSync(dir);
    return true;
  } catch (e) {
    return (e as { code?: string }).code === 'ENOENT';
  }
}

const killNow = (pid: number) => process.kill(pid, 'SIGKILL');

/**
 * Removes the cgroup, trying again every 20 ms while its killed processes are reaped, for at most `ms`; true once it
 * is gone. Its timers hold the process: a runner awaiting it (the run's result) does not exit before it is removed.
 */
function removeCgroup(dir: string, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  return new Promise((resolve) => {
    const attempt = () => {
      if (removeCgroupOnce(fs, killNow, dir)) resolve(true);
      else if (Date.now() >= deadline) resolve(false);
      else setTimeout(attempt, 20);
    };
    attempt();
  });
}

/** Removes the cgroups of runners that are gone (a CLI that exited before its run's cgroup emptied); rmdir removes only empty ones. */
function removeStale(): void {
  let names: string[];
  try {
    names = fs.readdirSync(PIDS_CGROUP_ROOT).filter((n) => n.startsWith('agent-skills-'));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(name.split('-')[2]);
    if (!Number.isInteger(pid) || pid === process.pid || fs.existsSync(`/proc/${pid}`)) continue;
    removeCgroupOnce(fs, killNow, `${PIDS_CGROUP_ROOT}/${name}`);
  }
}
