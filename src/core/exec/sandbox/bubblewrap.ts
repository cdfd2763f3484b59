import { sandboxedCommand } from '../launcher';
import { hostSystemView, type SystemView } from '../sandboxView';
import type { ProbeEnv, SandboxBackend, SandboxLaunch, SandboxProbe } from './backend';
import * as path from 'node:path';
import { checkedBinds, mountPlan, type MountPlan, type RunFolders } from './mountPlan';
import { privateSystemFiles } from './privateSystemFiles';
import type { TrustRoots } from './trustedPrograms';

/** Options of one bubblewrap invocation that depend on the bwrap found (see the probe). */
export interface BwrapOptions {
  /** Pass `--disable-userns` (bubblewrap 0.8+): no nested user namespace inside. */
  disableUserns: boolean;
  /**
   * Size cap in bytes of the private /tmp and /dev/shm (bubblewrap 0.5+ `--size`); undefined where bwrap
   * lacks it. Both are tmpfs, that is memory: uncapped, each could take half the host's RAM.
   */
  tmpfsBytes?: number;
}

/** Kernel files under /proc that describe the host user rather than the sandbox: shown empty (bound to /dev/null). */
export const MASKED_PROC_FILES = ['/proc/keys', '/proc/key-users'];

/**
 * bubblewrap arguments for one run. Isolation: new user namespace with the script mapped to an
 * unprivileged uid, every capability dropped, no_new_privs (bubblewrap always sets it), new PID, IPC,
 * UTS, network (loopback only) and cgroup namespaces, a new session (no TIOCSTI into the editor's
 * terminal), killed when its parent dies. Mounts: a fresh root holding only the system view, generated
 * passwd/group, new /proc with the user's kernel keys masked, minimal /dev, private /tmp, then the run's own
 * folders, every source as {@link checkedBinds} resolved it just now. The environment is cleared and the
 * script's set with --setenv, so nothing of it (LD_PRELOAD...) reaches bwrap itself.
 * The sandbox leaves the runner's process group (new session); a timeout kills bwrap, which is in it,
 * and --die-with-parent plus the PID namespace take every process inside down with it.
 */
export function bwrapArgs(plan: MountPlan, run: RunFolders, roots: TrustRoots, options: BwrapOptions): string[] {
  const binds = checkedBinds(plan, run, roots);
  const a = ['--unshare-user', '--uid', String(plan.user.uid), '--gid', String(plan.user.gid)];
  a.push('--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-net', '--unshare-cgroup-try');
  a.push('--die-with-parent', '--new-session', '--cap-drop', 'ALL');
  if (options.disableUserns) a.push('--disable-userns');
  for (const b of binds.system) a.push('--ro-bind', b.source, b.dest);
  for (const l of roots.view.symlinks) a.push('--symlink', l.target, l.path);
  // What only root may read in the shown /etc entries is hidden: a runner started as root is root to them (privateSystemFiles.ts).
  for (const b of binds.system.filter((s) => s.dest.startsWith('/etc/'))) {
    for (const h of privateSystemFiles([b.source])) {
      const dest = path.join(b.dest, path.relative(b.source, h.path));
      if (h.kind === 'dir') a.push('--tmpfs', dest, '--remount-ro', dest);
      else a.push('--ro-bind', '/dev/null', dest);
    }
  }
  a.push('--ro-bind', binds.identity[0].source, '/etc/passwd', '--ro-bind', binds.identity[1].source, '/etc/group');
  a.push('--proc', '/proc', '--dev', '/dev');
  for (const f of MASKED_PROC_FILES) a.push('--ro-bind-try', '/dev/null', f);
  // --dev is itself an uncapped tmpfs the script may write: it becomes read-only (device nodes still work),
  // with a capped tmpfs over its shm/ folder.
  if (options.tmpfsBytes) {
    a.push('--size', String(options.tmpfsBytes), '--tmpfs', '/dev/shm', '--remount-ro', '/dev');
    a.push('--size', String(options.tmpfsBytes), '--tmpfs', '/tmp');
  } else a.push('--tmpfs', '/tmp');
  // After /tmp: the state folder may live under it. Read-only extras first: a linked input's folder may
  // hold the state folder, whose run folders must stay writable on top of it.
  for (const r of binds.readOnly) a.push('--ro-bind', r.source, r.dest);
  a.push('--bind', binds.workspace.source, binds.workspace.dest);
  for (const w of binds.writable) a.push('--bind', w.source, w.dest);
  a.push('--ro-bind', binds.skillsDir.source, binds.skillsDir.dest);
  a.push('--clearenv');
  for (const [k, v] of Object.entries(plan.env)) a.push('--setenv', k, v);
  a.push('--chdir', plan.cwd, '--');
  return a;
}

/** The trust roots of one runner: the host's system view, its state folder, and the skill (never trusted). */
function rootsOf(stateDir: string, skillRoot: string | undefined, view: SystemView = hostSystemView()): TrustRoots {
  return { view, stateDir, forbidden: skillRoot ? [skillRoot] : [] };
}

const probes = new Map<string, Promise<SandboxProbe>>();

/** Linux user namespaces through bubblewrap (`bwrap`). */
export const bubblewrap: SandboxBackend = {
  id: 'bubblewrap',
  platforms: ['linux'],
  guarantees:
    'no network; sees only system programs and libraries, its run folder, a read-only copy of the skill and the skill\'s own HOME ' +
    '(not your home folder, other projects, /tmp or /run); runs as an unprivileged user without capabilities; killed with its whole process tree at the timeout',
  whenUnavailable: 'Install bubblewrap or set agentSkills.scripts.sandbox to "auto".',

  /**
   * Looks for bwrap on the runner's PATH and tries it once with the isolation a run uses (user namespace,
   * dropped capabilities, new session, a fresh root with only the system view), since it may be installed
   * but unusable (user namespaces off in a container, too old). The answer is remembered per bwrap path.
   */
  probe(env: ProbeEnv): Promise<SandboxProbe> {
    const program = env.resolver.resolve('bwrap');
    if (!program) return Promise.resolve({ available: false, backend: 'bubblewrap', reason: 'bubblewrap (bwrap) is not installed; install the package "bubblewrap" to sandbox scripts' });
    let probe = probes.get(program);
    if (!probe) {
      probe = (async (): Promise<SandboxProbe> => {
        const help = await env.run(program, ['--help']);
        const disableUserns = help.output.includes('--disable-userns');
        const sizeOption = help.output.includes('--size');
        const r = await env.run(program, trialArgs(env, { disableUserns, tmpfsBytes: sizeOption ? 1024 * 1024 : undefined }));
        if (r.code === 0) return { available: true, backend: 'bubblewrap', program, disableUserns, sizeOption };
        const said = r.output.trim().split('\n')[0]?.slice(0, 200);
        return {
          available: false,
          backend: 'bubblewrap',
          program,
          reason: `bwrap at ${program} failed a trial run (exit ${r.code}${said ? `: ${said}` : ''}); user namespaces may be disabled`,
        };
      })();
      probes.set(program, probe);
    }
    return probe;
  },

  launch(spec: SandboxLaunch, probe: SandboxProbe) {
    const roots = rootsOf(spec.stateDir, spec.skillRoot);
    const plan = mountPlan(spec.run, [spec.argv[0], spec.sh], roots, { user: spec.user, cwd: spec.cwd, env: spec.env });
    const args = bwrapArgs(plan, spec.run, roots, {
      disableUserns: probe.disableUserns === true,
      // The private /tmp and /dev/shm hold memory, not disk: the run folder's cap bounds each.
      tmpfsBytes: probe.sizeOption ? spec.maxFileBytes : undefined,
    });
    // bwrap starts with an empty environment: nothing of the call's reaches it.
    return { program: probe.program ?? 'bwrap', args: [...args, ...sandboxedCommand(spec.sh, spec.argv, spec.maxFileBytes)], env: {} };
  },
};

/** A run of `true` in the same sandbox a script gets (system view, identity, namespaces, masks). */
function trialArgs(env: ProbeEnv, options: BwrapOptions): string[] {
  const dir = env.identityDir(`${env.stateDir}/probe`, '/');
  const run: RunFolders = { workspace: dir, skillsDir: dir, snapshotDir: dir, home: dir, depDirs: [], linked: [], identityDir: dir };
  const roots = rootsOf(env.stateDir, undefined);
  const plan: MountPlan = { workspace: dir, skillsDir: dir, readOnly: [], writable: [], passwdFile: `${dir}/passwd`, groupFile: `${dir}/group`, user: env.user, cwd: '/', env: { PATH: '/usr/bin:/bin' } };
  const truePath = env.resolver.resolve('true') ?? '/bin/true';
  return [...bwrapArgs(plan, run, roots, options), truePath];
}
