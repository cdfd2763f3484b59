import * as fs from 'node:fs';
import { pidsCgroup } from './pidsCgroup';
import { fewestTasksNow } from './userTasks';

/**
 * The cap on the processes and threads one run may have (a fork bomb stops there), set by the launcher's `sh` as
 * RLIMIT_NPROC just before it execs the script. The kernel counts that limit per real uid: in a bubblewrap sandbox
 * per uid inside the run's own user namespace (only the run's tasks, plus bwrap's init), without a sandbox over every
 * process of the runner's user, so there the limit is the user's count now plus the run's allowance (the fewest tasks
 * the user can have now, counted between runs: userTasks.ts, taskCount.ts). It never binds
 * root (the kernel exempts uid 0): a root runner without a sandbox gets a pids cgroup of its own (pidsCgroup.ts, cgroup
 * v1; the launcher joins it before the exec), else it is not capped, and the result says so.
 */
export interface ProcessCap {
  /** The RLIMIT_NPROC the launcher sets, a pids cgroup folder it joins (absolute), or `-` for none. */
  rlimit: string;
  /** What the run result says of it. */
  said: string;
  /** A root runner's pids cgroup of its own (the folder in {@link rlimit}): removed after the run, or by the launcher when the runner goes first. */
  cgroup?: string;
  /** After the run: kills what is left in the cgroup and removes it; resolves once it is gone or after CGROUP_REMOVAL_MS (pidsCgroup.ts). */
  release?: () => Promise<boolean>;
}

/** The sandbox's own tasks counted beside the script's: bwrap's init (pid 1 of the namespace). */
const SANDBOX_OVERHEAD = 1;

/**
 * The cap for a run allowed `allowance` processes and threads, started in a user namespace or not, by `uid`.
 * `fewestTasks`: the fewest tasks an ordinary user can have now (userTasks.ts; a runner keeps one counted between runs).
 */
export function processCap(allowance: number, userNamespace: boolean, uid: number | undefined = process.getuid?.(), runId = '', fewestTasks = fewestTasksNow): ProcessCap {
  if (userNamespace) return { rlimit: String(allowance + SANDBOX_OVERHEAD), said: `at most ${allowance} processes and threads (RLIMIT_NPROC in the sandbox's user namespace)` };
  if (uid === undefined) return { rlimit: '-', said: 'not capped: this platform has no RLIMIT_NPROC the runner can set' };
  if (uid === 0) {
    const made = pidsCgroup(allowance, runId);
    if (typeof made !== 'string') return { rlimit: made.dir, cgroup: made.dir, said: `at most ${allowance} processes and threads (a pids cgroup of its own, ${made.dir})`, release: made.release };
    return { rlimit: '-', said: `not capped: the kernel does not apply RLIMIT_NPROC to root, and ${made}; run agent-skills as an ordinary user or with the sandbox on` };
  }
  const now = fewestTasks(uid, allowance);
  const hard = hardLimit();
  const limit = Math.min(now + allowance, hard ?? Number.MAX_SAFE_INTEGER);
  return { rlimit: String(limit), said: `at most ${limit - now} processes and threads more than your user's ${now} (RLIMIT_NPROC ${limit}, counted over all of your user's processes)` };
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
