import * as path from 'node:path';
import { sandboxedCommand } from '../launcher';
import { hostSystemView, type SystemView } from '../sandboxView';
import type { ProbeEnv, SandboxBackend, SandboxLaunch, SandboxProbe } from './backend';
import { checkedBinds, mountPlan, type MountPlan, type RunFolders } from './mountPlan';
import { keyringFilterFile, unloadableFilterAsked } from './keyringFilter';
import { inSystemView, realPathOf, type TrustRoots } from './trustedPrograms';

/** Options of one bubblewrap invocation that depend on the bwrap found (see the probe). */
export interface BwrapOptions {
  /** Pass `--disable-userns` (bubblewrap 0.8+): no nested user namespace inside. */
  disableUserns: boolean;
  /**
   * Size cap in bytes of the private /tmp and /dev/shm (bubblewrap 0.5+ `--size`); undefined where bwrap
   * lacks it. Both are tmpfs, that is memory: uncapped, each could take half the host's RAM.
   */
  tmpfsBytes?: number;
  /** A runner started as root: the sandbox drops to this host account in a second stage ({@link RootDrop}). */
  drop?: RootDrop;
}

/** What the probe found out about the bwrap here (SandboxProbe.options, read only by this backend's launch). */
export interface BwrapProbeOptions {
  /** `--disable-userns` is known (0.8+). */
  disableUserns: boolean;
  /** `--size` is known (0.5+). */
  sizeOption: boolean;
  /** `--bind-fd`/`--ro-bind-fd` are known (0.8+): bind sources are pinned as open descriptors (bindFds.ts). */
  bindFdOption: boolean;
  /** A runner started as root: how the sandbox drops to an unprivileged host account ({@link RootDrop}). */
  drop?: RootDrop;
  /** The trial run loaded the keyring seccomp filter; false: runs go without it (SandboxProbe.missing says so). */
  seccomp: boolean;
}

/** This backend's options in a probe it made; a probe it did not make is a bug in the caller, said as such. */
function bwrapOptionsOf(probe: SandboxProbe): BwrapProbeOptions {
  const o = probe.options as Partial<BwrapProbeOptions> | undefined;
  if (probe.backend !== 'bubblewrap' || typeof o !== 'object' || o === null || typeof o.disableUserns !== 'boolean' || typeof o.sizeOption !== 'boolean' || typeof o.bindFdOption !== 'boolean' || typeof o.seccomp !== 'boolean') {
    throw new Error(`bubblewrap: launch was given a probe it did not make (backend ${String(probe.backend)}); probe again with the backend registry`);
  }
  return o as BwrapProbeOptions;
}

/**
 * How a root runner's sandbox stops being root. A user namespace maps its inside uid to the account that made it:
 * made by root, the script is the host's uid 0 (without capabilities, but the owner of every root-owned file, so
 * it could read any file only root may read among those shown). So a root runner's bwrap only builds the mount
 * tree (as root: it reaches the run's folders in the owner-only state folder), then `setpriv` becomes the host
 * account `uid`/`gid` (`nobody`) and a second bwrap, started by that account, makes the user namespace and the
 * other namespaces over the whole tree (`--dev-bind / /`: every read-only mount stays read-only). The kernel then refuses
 * the script every file only root may read, wherever it lies. (bwrap cannot do it in one step: its `--bind-fd`
 * reaches a source again by its path, and `--userns` changes uid before mounting.)
 */
export interface RootDrop {
  /** `setpriv` (util-linux), shown by the system view. */
  setpriv: string;
  /** The bwrap of the second stage (the probed one: its trial fails where the first stage does not show it). */
  bwrap: string;
  uid: number;
  gid: number;
}

/** Kernel files under /proc that describe the host user rather than the sandbox: shown empty (bound to /dev/null). */
export const MASKED_PROC_FILES = ['/proc/keys', '/proc/key-users'];

/**
 * bubblewrap arguments for one run. Isolation: new user namespace with the script mapped to an
 * unprivileged uid (for a root runner, an unprivileged host account too: {@link RootDrop}), every capability
 * dropped, no_new_privs (bubblewrap always sets it), new PID, IPC,
 * UTS, network (loopback only) and cgroup namespaces, a new session (no TIOCSTI into the editor's
 * terminal), killed when its parent dies. Mounts: a fresh root holding only the system view, generated
 * passwd/group, new /proc with the user's kernel keys masked, minimal /dev, private /tmp, then the run's own
 * folders, every source as {@link checkedBinds} resolved it just now. The environment is cleared and the
 * script's set with --setenv, so nothing of it (LD_PRELOAD...) reaches bwrap itself.
 * The sandbox leaves the runner's process group (new session); a timeout kills bwrap, which is in it,
 * and --die-with-parent plus the PID namespace take every process inside down with it.
 */
export function bwrapArgs(plan: MountPlan, run: RunFolders, roots: TrustRoots, options: BwrapOptions): string[] {
  return pinnableBwrapArgs(plan, run, roots, options).args;
}

/**
 * {@link bwrapArgs}, and the index of every `--bind`/`--ro-bind` whose source was checked: where bwrap takes
 * `--bind-fd`, the one who spawns it opens those sources and binds the descriptors (bindFds.ts).
 */
export function pinnableBwrapArgs(plan: MountPlan, run: RunFolders, roots: TrustRoots, options: BwrapOptions): { args: string[]; pins: number[] } {
  const binds = checkedBinds(plan, run, roots);
  const pins: number[] = [];
  const drop = options.drop;
  // The namespaces and the user: in the one stage, or in the second one (started as the unprivileged account).
  const isolation = ['--unshare-user', '--uid', String(plan.user.uid), '--gid', String(plan.user.gid)];
  isolation.push('--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-net', '--unshare-cgroup-try');
  isolation.push('--die-with-parent', '--new-session', '--cap-drop', 'ALL');
  if (options.disableUserns) isolation.push('--disable-userns');
  const a = drop ? [] : isolation;
  const bind = (option: '--bind' | '--ro-bind', b: { source: string }, dest: string) => {
    pins.push(a.length);
    a.push(option, b.source, dest);
  };
  const runDests = [...binds.readOnly, binds.workspace, ...binds.writable, binds.skillsDir].map((b) => b.dest);
  if (drop) a.push(...openParents([...binds.system.map((b) => b.dest), '/etc/passwd'], roots.view));
  for (const b of binds.system) bind('--ro-bind', b, b.dest);
  for (const l of roots.view.symlinks) a.push('--symlink', l.target, l.path);
  bind('--ro-bind', binds.identity[0], '/etc/passwd');
  bind('--ro-bind', binds.identity[1], '/etc/group');
  const proc = ['--proc', '/proc', ...MASKED_PROC_FILES.flatMap((f) => ['--ro-bind-try', '/dev/null', f])];
  // The second stage mounts its /proc for its own PID namespace; the kernel allows that only where a whole /proc is
  // already visible (the host's, covered by the new one inside).
  if (drop) a.push('--bind', '/proc', '/proc', '--dev', '/dev');
  else a.push(...proc, '--dev', '/dev');
  // Made by root in the first stage, the private /tmp and /dev/shm must be writable by the account of the second.
  const open = drop ? ['--perms', '1777'] : [];
  // --dev is itself an uncapped tmpfs the script may write: it becomes read-only (device nodes still work),
  // with a capped tmpfs over its shm/ folder.
  if (options.tmpfsBytes) {
    a.push(...open, '--size', String(options.tmpfsBytes), '--tmpfs', '/dev/shm', '--remount-ro', '/dev');
    a.push(...open, '--size', String(options.tmpfsBytes), '--tmpfs', '/tmp');
  } else a.push(...open, '--tmpfs', '/tmp');
  // After /tmp: the state folder may live under it. Read-only extras first: a linked input's folder may
  // hold the state folder, whose run folders must stay writable on top of it.
  if (drop) a.push(...openParents(runDests, roots.view));
  for (const r of binds.readOnly) bind('--ro-bind', r, r.dest);
  bind('--bind', binds.workspace, binds.workspace.dest);
  for (const w of binds.writable) bind('--bind', w, w.dest);
  bind('--ro-bind', binds.skillsDir, binds.skillsDir.dest);
  if (drop) {
    a.push('--die-with-parent', '--clearenv', '--chdir', '/', '--');
    a.push(drop.setpriv, '--reuid', String(drop.uid), '--regid', String(drop.gid), '--clear-groups', '--', drop.bwrap);
    // --dev-bind: the first stage's /dev keeps its device nodes; every other mount keeps its own nodev and read-only flags.
    a.push(...isolation, '--dev-bind', '/', '/', ...proc);
  }
  a.push('--clearenv');
  for (const [k, v] of Object.entries(plan.env)) a.push('--setenv', k, v);
  a.push('--chdir', plan.cwd, '--');
  return { args: a, pins };
}

/**
 * `--perms 0755 --dir` for each folder above the binds that bwrap would make itself: as root it gives such a folder
 * the mode of the host's (the owner-only state folder, a 0700 temp folder) or 0700 (`/etc`), which the second
 * stage's account could not enter. Top-down, so each exists before what goes in it; none inside a system folder (shown as it is).
 */
/** Folders the first stage mounts itself (left as they are mounted). */
const STAGE_MOUNTS = ['/tmp', '/dev', '/dev/shm', '/proc'];

function openParents(dests: readonly string[], view: SystemView): string[] {
  const out = new Set<string>();
  for (const dest of dests) {
    const above: string[] = [];
    for (let p = path.dirname(dest); p !== path.dirname(p); p = path.dirname(p)) above.unshift(p);
    for (const p of above) if (!dests.includes(p) && !inSystemView(p, view) && !STAGE_MOUNTS.includes(p)) out.add(p);
  }
  return [...out].sort((x, y) => x.split('/').length - y.split('/').length).flatMap((p) => ['--perms', '0755', '--dir', p]);
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
  ownProcessCount: true,
  guarantees:
    'no network; sees only system programs and libraries, its run folder, a read-only copy of the skill and the skill\'s own HOME ' +
    '(not your home folder, other projects, /tmp or /run); runs as an unprivileged user without capabilities; capped in processes and threads; killed with its whole process tree at the timeout',
  whenUnavailable: 'Install bubblewrap or set agentSkills.scripts.sandbox to "auto".',

  /**
   * Looks for bwrap on the runner's PATH and tries it once with the isolation a run uses (user namespace,
   * dropped capabilities, new session, a fresh root with only the system view), since it may be installed
   * but unusable (user namespaces off in a container, too old). The answer is remembered per bwrap path.
   */
  probe(env: ProbeEnv): Promise<SandboxProbe> {
    const program = env.resolver.resolve('bwrap');
    if (!program) return Promise.resolve({ available: false, backend: 'bubblewrap', reason: 'bubblewrap (bwrap) is not installed; install the package "bubblewrap" to sandbox scripts' });
    // The test knob (keyringFilter.ts) changes the filter: a probe with it is not the one without.
    const key = `${program}\0${unloadableFilterAsked() ? 'unloadable' : ''}`;
    let probe = probes.get(key);
    if (!probe) {
      probe = (async (): Promise<SandboxProbe> => {
        const help = await env.run(program, ['--help']);
        const disableUserns = help.output.includes('--disable-userns');
        const sizeOption = help.output.includes('--size');
        const bindFdOption = help.output.includes('--ro-bind-fd');
        const drop = env.user.host ? rootDrop(env, program) : undefined;
        if (typeof drop === 'string') return { available: false, backend: 'bubblewrap', program, reason: drop };
        const trial = trialArgs(env, { disableUserns, tmpfsBytes: sizeOption ? 1024 * 1024 : undefined, drop });
        const found = (seccomp: boolean, missing?: string[]): SandboxProbe => ({
          available: true,
          backend: 'bubblewrap',
          program,
          options: { disableUserns, sizeOption, bindFdOption, seccomp, ...(drop ? { drop } : {}) } satisfies BwrapProbeOptions,
          ...(drop ? { handsOver: { uid: drop.uid, gid: drop.gid } } : {}),
          ...(missing ? { missing } : {}),
        });
        // The trial loads the filter a run loads, the same way (a descriptor the spawner opens).
        const filter = keyringFilterFile(env.stateDir);
        const filtered = withFilter(trial, [], filter);
        const r = await env.run(program, filtered.args, filtered.pins);
        if (r.code === 0) return found(filter !== undefined, filter ? undefined : [keysNotRefused(`no seccomp filter is known for this architecture (${process.arch})`)]);
        // Failed with the filter: where the same sandbox starts without it, the kernel (or bwrap) would not load the
        // filter. Runs then go without it, and the status, the confirmation and every result say what is missing.
        const bare = filter ? await env.run(program, trial) : r;
        if (filter && bare.code === 0) return found(false, [keysNotRefused(`bubblewrap could not load the seccomp filter (${firstLine(r)})`)]);
        return {
          available: false,
          backend: 'bubblewrap',
          program,
          reason: `bwrap at ${program} failed a trial run (${firstLine(bare)}); user namespaces may be disabled`,
        };
      })();
      probes.set(key, probe);
    }
    return probe;
  },

  launch(spec: SandboxLaunch, probe: SandboxProbe) {
    const roots = rootsOf(spec.stateDir, spec.skillRoot);
    const plan = mountPlan(spec.run, [spec.argv[0], spec.sh], roots, { user: spec.user, cwd: spec.cwd, env: spec.env });
    const o = bwrapOptionsOf(probe);
    const { args, pins } = pinnableBwrapArgs(plan, spec.run, roots, {
      disableUserns: o.disableUserns,
      // The private /tmp and /dev/shm hold memory, not disk: the run folder's cap bounds each.
      tmpfsBytes: o.sizeOption ? spec.maxFileBytes : undefined,
      drop: o.drop,
    });
    // The kernel's key calls refused (keyringFilter.ts), where the probe's trial loaded the filter.
    const filter = o.seccomp ? keyringFilterFile(spec.stateDir) : undefined;
    const filtered = withFilter(args, o.bindFdOption ? pins : [], filter);
    const pinned = filtered.pins;
    // bwrap starts with an empty environment: nothing of the call's reaches it.
    return { program: probe.program ?? 'bwrap', args: [...filtered.args, ...sandboxedCommand(spec.sh, spec.argv, spec.maxFileBytes, spec.processLimit)], env: {}, ...(pinned.length ? { pins: pinned } : {}) };
  },
};

/**
 * bwrap's arguments `args` (with `pins`, indices of the binds to pin) after `--seccomp FILTER`, loaded by the outer bwrap
 * (every stage and the script inherit it) and read by bwrap from a descriptor the spawner opens (a pin), whatever the
 * bwrap version. Without a filter, the arguments as they are. A run and the probe's trial both build theirs here.
 */
function withFilter(args: string[], pins: readonly number[], filter: string | undefined): { args: string[]; pins: number[] } {
  if (!filter) return { args, pins: [...pins] };
  return { args: ['--seccomp', filter, ...args], pins: [0, ...pins.map((i) => i + 2)] };
}

/** What a run lacks without the keyring filter, and why. */
function keysNotRefused(why: string): string {
  return `the kernel's key calls (add_key, request_key, keyctl) are not refused, so the script can read the keys of your session keyring: ${why}`;
}

/** The exit and the first line a trial printed. */
function firstLine(r: { code: number | null; output: string }): string {
  const said = r.output.trim().split('\n')[0]?.slice(0, 200);
  return `exit ${r.code}${said ? `: ${said}` : ''}`;
}

/** A run of `true` in the same sandbox a script gets (system view, identity, namespaces, masks). */
function trialArgs(env: ProbeEnv, options: BwrapOptions): string[] {
  const dir = env.identityDir(`${env.stateDir}/probe`, '/');
  const run: RunFolders = { workspace: dir, skillsDir: dir, snapshotDir: dir, home: dir, depDirs: [], linked: [], identityDir: dir };
  const roots = rootsOf(env.stateDir, undefined);
  const plan: MountPlan = { workspace: dir, skillsDir: dir, readOnly: [], writable: [], passwdFile: `${dir}/passwd`, groupFile: `${dir}/group`, user: env.user, cwd: '/', env: { PATH: '/usr/bin:/bin' } };
  const truePath = env.resolver.resolve('true') ?? '/bin/true';
  return [...bwrapArgs(plan, run, roots, options), truePath];
}

/** The second stage of a root runner's sandbox ({@link RootDrop}), or why it cannot be made here. */
function rootDrop(env: ProbeEnv, bwrap: string): RootDrop | string {
  const view = hostSystemView();
  const setpriv = env.resolver.resolve('setpriv');
  const shown = (p: string | undefined) => p !== undefined && inSystemView(realPathOf(p) ?? p, view) && inSystemView(p, view);
  if (!shown(setpriv)) return 'a runner started as root drops the sandbox to an unprivileged account with setpriv, which is not installed in a system folder; install util-linux (setpriv) or run agent-skills as an ordinary user';
  return { setpriv: setpriv!, bwrap, uid: env.user.host!.uid, gid: env.user.host!.gid };
}
