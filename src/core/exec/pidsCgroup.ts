import * as fs from 'node:fs';

/**
 * A root runner's pids cgroup for one run without a sandbox (the kernel exempts root from RLIMIT_NPROC, processLimit.ts):
 * a folder `agent-skills-<runner pid>-<run id>` under the cgroup v1 pids hierarchy's root ({@link PIDS_CGROUP_ROOT})
 * whose `pids.max` is the run's allowance, which the launcher's `sh` joins (writes its pid to `cgroup.procs`) before it
 * execs the script. After the run what is left in the folder is killed and the folder removed; the persistent launcher
 * does the same when the runner goes away first, and a new run removes the folders of runners that are gone.
 * cgroup v2 is not used: no host here offers its pids controller to test it on (README "Script sandbox"), so a root
 * runner without a sandbox on such a host is not capped, and its result says so.
 */

/** Where a root runner makes its runs' pids cgroups (cgroup v1). */
export const PIDS_CGROUP_ROOT = '/sys/fs/cgroup/pids';

/** How long the removal of a run's cgroup waits for its killed processes to be reaped (the folder is busy until then). */
export const CGROUP_REMOVAL_MS = 5000;

/** The folder a root runner makes its runs' cgroups in, or why there is none here. */
export function pidsParent(): string | { why: string } {
  try {
    fs.accessSync(PIDS_CGROUP_ROOT, fs.constants.W_OK);
    return PIDS_CGROUP_ROOT;
  } catch {
    return { why: `${PIDS_CGROUP_ROOT} (a cgroup v1 pids hierarchy) is not writable here (cgroup v2 is not used)` };
  }
}

/** A pids cgroup for run `runId` limited to `allowance`, with its release, or why none could be made. */
export function pidsCgroup(allowance: number, runId: string): { dir: string; release: () => Promise<boolean> } | string {
  const parent = pidsParent();
  if (typeof parent !== 'string') return parent.why;
  removeStale(parent);
  const dir = `${parent}/agent-skills-${process.pid}-${runId.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  try {
    fs.mkdirSync(dir);
  } catch (e) {
    return `the pids cgroup ${dir} could not be made (${(e as NodeJS.ErrnoException).code})`;
  }
  try {
    fs.writeFileSync(`${dir}/pids.max`, String(allowance));
  } catch (e) {
    removeCgroupOnce(fs, killNow, dir);
    return `${dir}/pids.max could not be written (${(e as NodeJS.ErrnoException).code})`;
  }
  return { dir, release: () => removeCgroup(dir, CGROUP_REMOVAL_MS) };
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

/** Removes the cgroups in `parent` of runners that are gone (one killed before its run's end); rmdir removes only empty ones. */
function removeStale(parent: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(parent).filter((n) => n.startsWith('agent-skills-'));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(name.split('-')[2]);
    if (!Number.isInteger(pid) || pid === process.pid || fs.existsSync(`/proc/${pid}`)) continue;
    removeCgroupOnce(fs, killNow, `${parent}/${name}`);
  }
}
