import type { ProgramResolver } from './interpreters';

/** Folders the sandboxed process may write; everything else of / is mounted read-only. */
export interface SandboxMounts {
  /** The run's workspace (writable, except its `skills/` folder). */
  workspace: string;
  /** The read-only staged skills folder inside the workspace. */
  skillsDir: string;
  /** Per-skill folders that must stay writable (dependency folders, HOME). */
  writable: string[];
  cwd: string;
}

/**
 * bubblewrap arguments: the host root read-only, fresh /dev and /proc, no network (only a loopback
 * inside), private IPC/UTS/PID namespaces, the workspace and the dependency folders bound writable
 * and the staged skill re-bound read-only on top. `--die-with-parent` ends the sandbox with the runner.
 * No `--new-session`: the sandbox must stay in the runner's process group so a timeout kills it.
 */
export function bwrapArgs(m: SandboxMounts): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  args.push('--unshare-net', '--unshare-ipc', '--unshare-uts', '--unshare-pid', '--die-with-parent');
  args.push('--bind', m.workspace, m.workspace);
  for (const w of m.writable) args.push('--bind', w, w);
  args.push('--ro-bind', m.skillsDir, m.skillsDir);
  args.push('--chdir', m.cwd, '--');
  return args;
}

/** Whether bwrap can be used here, and why not. */
export interface SandboxProbe {
  available: boolean;
  program?: string;
  reason?: string;
}

let probed: SandboxProbe | undefined;

/**
 * Looks for bwrap on PATH and tries it once (`bwrap --ro-bind / / --unshare-net ... true`), since it
 * may be installed but unusable (no user namespaces in a container). The answer is cached.
 */
export async function probeSandbox(resolver: ProgramResolver, run: (program: string, args: string[]) => Promise<number | null>): Promise<SandboxProbe> {
  if (probed) return probed;
  const program = resolver.resolve('bwrap');
  if (!program) {
    probed = { available: false, reason: 'bubblewrap (bwrap) is not installed; install the Debian/Ubuntu package "bubblewrap" to sandbox scripts' };
    return probed;
  }
  const code = await run(program, ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-net', '--unshare-pid', '--die-with-parent', 'true']);
  probed =
    code === 0
      ? { available: true, program }
      : { available: false, program, reason: `bwrap at ${program} is installed but failed a trial run (exit ${code}); user namespaces may be disabled` };
  return probed;
}

