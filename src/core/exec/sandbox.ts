import type { ProgramResolver } from './interpreters';
import type { SandboxStatus } from './sandboxStatus';
import { hostSystemView, type SandboxUser, type SystemView } from './sandboxView';
import type { SandboxPolicy } from './execTypes';

/** What one sandboxed run sees and may write, besides the system view. */
export interface SandboxPlan {
  /** The run's workspace (writable, except its `skills/` folder). */
  workspace: string;
  /** The staged skills folder inside the workspace, re-bound read-only. */
  skillsDir: string;
  /** Host folders and files bound read-only: the skill's snapshot, interpreter prefixes, linked inputs. */
  readOnly: string[];
  /** Per-skill folders that stay writable (HOME, dependency folders). */
  writable: string[];
  /** Files shown as /etc/passwd and /etc/group. */
  passwdFile: string;
  groupFile: string;
  user: SandboxUser;
  cwd: string;
  /** The script's whole environment, set inside the sandbox only (bwrap itself starts with none). */
  env: Readonly<Record<string, string>>;
  /** Pass `--disable-userns` (bubblewrap 0.8+): no nested user namespace inside. */
  disableUserns: boolean;
  /**
   * Size cap in bytes of the private /tmp and /dev/shm (bubblewrap 0.5+ `--size`); undefined where bwrap
   * lacks it. Both are tmpfs, that is memory: uncapped, each could take half the host's RAM.
   */
  tmpfsBytes?: number;
}

/**
 * bubblewrap arguments for one run. Isolation: new user namespace with the script mapped to an
 * unprivileged uid, every capability dropped, no_new_privs (bubblewrap always sets it), new PID, IPC,
 * UTS, network (loopback only) and cgroup namespaces, a new session (no TIOCSTI into the editor's
 * terminal), killed when its parent dies. Mounts: a fresh root holding only the system view, generated
 * passwd/group, new /proc, minimal /dev, private /tmp, then the run's own folders. The environment is
 * cleared and the script's set with --setenv, so nothing of it (LD_PRELOAD...) reaches bwrap itself.
 * The sandbox leaves the runner's process group (new session); a timeout kills bwrap, which is in it,
 * and --die-with-parent plus the PID namespace take every process inside down with it.
 */
export function bwrapArgs(plan: SandboxPlan, view: SystemView = hostSystemView()): string[] {
  const a = ['--unshare-user', '--uid', String(plan.user.uid), '--gid', String(plan.user.gid)];
  a.push('--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-net', '--unshare-cgroup-try');
  a.push('--die-with-parent', '--new-session', '--cap-drop', 'ALL');
  if (plan.disableUserns) a.push('--disable-userns');
  for (const b of view.binds) a.push('--ro-bind', b, b);
  for (const l of view.symlinks) a.push('--symlink', l.target, l.path);
  a.push('--ro-bind', plan.passwdFile, '/etc/passwd', '--ro-bind', plan.groupFile, '/etc/group');
  a.push('--proc', '/proc', '--dev', '/dev');
  // --dev is itself an uncapped tmpfs the script may write: it becomes read-only (device nodes still work),
  // with a capped tmpfs over its shm/ folder.
  if (plan.tmpfsBytes) {
    a.push('--size', String(plan.tmpfsBytes), '--tmpfs', '/dev/shm', '--remount-ro', '/dev');
    a.push('--size', String(plan.tmpfsBytes), '--tmpfs', '/tmp');
  } else a.push('--tmpfs', '/tmp');
  // After /tmp: the state folder may live under it. Read-only extras first: a linked input's folder may
  // hold the state folder, whose run folders must stay writable on top of it.
  for (const r of plan.readOnly) a.push('--ro-bind-try', r, r);
  a.push('--bind', plan.workspace, plan.workspace);
  for (const w of plan.writable) a.push('--bind', w, w);
  a.push('--ro-bind', plan.skillsDir, plan.skillsDir);
  a.push('--clearenv');
  for (const [k, v] of Object.entries(plan.env)) a.push('--setenv', k, v);
  a.push('--chdir', plan.cwd, '--');
  return a;
}

/** Whether bwrap can be used here, and why not. */
export interface SandboxProbe {
  available: boolean;
  program?: string;
  reason?: string;
  /** bubblewrap knows `--disable-userns`. */
  disableUserns?: boolean;
  /** bubblewrap knows `--size` (caps a tmpfs). */
  sizeOption?: boolean;
}

const probes = new Map<string, Promise<SandboxProbe>>();

/** Runs a program to completion: its exit code (null when it could not start) and its output. */
export type ProbeRun = (program: string, args: string[]) => Promise<{ code: number | null; output: string }>;

/**
 * Looks for bwrap on the runner's PATH and tries it once with the isolation a run uses (user namespace,
 * dropped capabilities, new session, a fresh root with only the system view), since it may be installed
 * but unusable (user namespaces off in a container, too old). The answer is remembered per bwrap path.
 */
export function probeSandbox(resolver: ProgramResolver, run: ProbeRun, trial: (disableUserns: boolean, sizeOption: boolean) => { args: string[] }): Promise<SandboxProbe> {
  if (process.platform !== 'linux') return Promise.resolve({ available: false, reason: `there is no bubblewrap sandbox on ${process.platform}` });
  const program = resolver.resolve('bwrap');
  if (!program) return Promise.resolve({ available: false, reason: 'bubblewrap (bwrap) is not installed; install the package "bubblewrap" to sandbox scripts' });
  let probe = probes.get(program);
  if (!probe) {
    probe = (async (): Promise<SandboxProbe> => {
      const help = await run(program, ['--help']);
      const disableUserns = help.output.includes('--disable-userns');
      const sizeOption = help.output.includes('--size');
      const r = await run(program, trial(disableUserns, sizeOption).args);
      if (r.code === 0) return { available: true, program, disableUserns, sizeOption };
      const said = r.output.trim().split('\n')[0]?.slice(0, 200);
      return {
        available: false,
        program,
        reason: `bwrap at ${program} failed a trial run (exit ${r.code}${said ? `: ${said}` : ''}); user namespaces may be disabled`,
      };
    })();
    probes.set(program, probe);
  }
  return probe;
}

/** The status of a policy given a probe: what the confirmation shows and what the run does. */
export function statusOf(policy: SandboxPolicy, probe: SandboxProbe | undefined): SandboxStatus {
  if (policy === 'off') return { policy, sandboxed: false, refused: false, reason: 'the sandbox is off (setting agentSkills.scripts.sandbox or --sandbox off)' };
  if (probe?.available) return { policy, sandboxed: true, refused: false, mechanism: 'bubblewrap', program: probe.program };
  const reason = probe?.reason ?? 'no sandbox was found';
  return { policy, sandboxed: false, refused: policy === 'required', reason };
}
