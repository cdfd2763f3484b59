import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ProgramFilter, ProgramResolver } from './interpreters';
import { fileSizeBlocks, localLaunch, preparedCommand, RUN_MARKER_VAR, sandboxedCommand, type Launch } from './launcher';
import { PersistentLauncher } from './persistentLauncher';
import { PreparedStart } from './preparedStart';
import { UserTasks } from './userTasks';
import { inheritedFds } from './descriptors';
import { ScriptRunError } from './scriptRunError';
import { handOver } from './runOwner';
import { killRunProcesses } from './processTree';
import { runProcess } from './processRunner';
import { processCap, type ProcessCap } from './processLimit';
import type { SandboxProbe, SandboxStatus } from './sandbox/backend';
import { backendById, probeBackends, statusOf } from './sandbox/registry';
import { namedProgram, visibleProgram } from './sandbox/trustedPrograms';
import type { ProcessEvents, StartedProcess, StartSpec } from './startedProcess';
import { hostSystemView, identityFiles, sandboxUser } from './sandboxView';
import type { SandboxPolicy } from './execTypes';

/** Decides and builds how a run's process is started; one per runner (it remembers what it looked up). */
export class Launcher {
  private readonly identities = new Set<string>();
  /** Starts every unsandboxed run (where it can start: else the `sh` launcher does, one process more per run). */
  private readonly persistent = new PersistentLauncher();
  /** A root runner's next unsandboxed start, its pids cgroup joined ahead (preparedStart.ts). */
  private readonly prepared = new PreparedStart(this.persistent);
  /** An ordinary user's count of tasks for the process cap, taken by the persistent launcher between runs (userTasks.ts). */
  private readonly tasks = new UserTasks((uid) => this.persistent.count(uid));
  private readonly fewestTasks = (uid: number, allowance: number) => this.tasks.fewest(uid, allowance);

  constructor(
    private readonly resolver: ProgramResolver,
    /** The runner's state folder: never shown inside a sandbox, except the run's own parts. */
    private readonly stateDir: string,
  ) {}

  /** Probes the sandbox backends (each once) with the isolation a run uses, and says what `policy` will do. */
  async status(policy: SandboxPolicy): Promise<{ status: SandboxStatus; probe?: SandboxProbe }> {
    if (policy === 'off') return { status: statusOf(policy, undefined) };
    const probe = await probeBackends({
      resolver: this.resolver,
      run: async (program, args, pins) => {
        const r = await runProcess({ program, args, cwd: '/', env: {}, timeoutMs: 5000, killGraceMs: 100, stdoutCap: 16384, stderrCap: 4096, ...(pins?.length ? { pins } : {}) });
        return { code: r.spawnError ? null : r.exitCode, output: `${r.stderr}\n${r.stdout}` };
      },
      stateDir: this.stateDir,
      user: this.user(),
      identityDir: (dir, home) => this.identityDir(dir, home),
    });
    return { status: statusOf(policy, probe), probe };
  }

  /**
   * Which programs a sandboxed run may start as its interpreter: trusted by their real path (system or
   * toolchain folders; never the skill, the state folder, HOME or /tmp); a path the skill or call wrote only from a
   * system folder (trustedPrograms.ts namedProgram). Undefined without a sandbox.
   */
  programFilter(probe: SandboxProbe | undefined, skillRoot: string): ProgramFilter | undefined {
    if (!probe?.available || !backendById(probe.backend).launch) return undefined;
    const roots = { view: hostSystemView(), stateDir: this.stateDir, forbidden: [skillRoot] };
    return (program, named) => (named ? namedProgram(program, roots) : visibleProgram(program, roots));
  }

  private user() {
    return sandboxUser(process.getuid?.() ?? 1000, process.getgid?.() ?? 1000);
  }

  /** `dir/passwd` and `dir/group` naming the sandbox user with `home`, written once per runner (temp + rename). */
  private identityDir(dir: string, home: string): string {
    if (this.identities.has(dir)) return dir;
    const files = identityFiles(this.user(), home);
    fs.mkdirSync(dir, { recursive: true });
    for (const [name, text] of Object.entries(files)) {
      const tmp = path.join(dir, `.${name}.tmp-${process.pid}`);
      fs.writeFileSync(tmp, text);
      fs.renameSync(tmp, path.join(dir, name));
    }
    this.identities.add(dir);
    return dir;
  }

  /** The process to spawn for `argv`: the probed backend's launch when it isolates, else the runner's own start. */
  async build(spec: LaunchSpec): Promise<Launch & { processes: string; release?: () => Promise<boolean>; sweep?: (pid: number) => void; start?: (spec: StartSpec, on: ProcessEvents) => StartedProcess }> {
    const launch = await this.launch(spec);
    return { ...launch, processes: launch.cap.said, release: launch.cap.release };
  }

  private async launch(spec: LaunchSpec): Promise<Launch & { cap: ProcessCap; sweep?: (pid: number) => void; start?: (spec: StartSpec, on: ProcessEvents) => StartedProcess }> {
    const found = this.resolver.resolve('sh');
    const sh = found ?? '/bin/sh';
    const marker = { [RUN_MARKER_VAR]: spec.runId };
    const backend = spec.probe?.available ? backendById(spec.probe.backend) : undefined;
    if (spec.probe && backend?.launch) {
      const identityDir = this.identityDir(path.join(spec.depsRoot, 'sandbox-etc'), spec.home);
      const run = { workspace: spec.workspace, skillsDir: spec.skillsDir, snapshotDir: spec.snapshotDir, home: spec.home, depDirs: spec.depDirs, linked: spec.linked, identityDir };
      const env = { ...spec.hostEnv, ...spec.callEnv, ...spec.runtimeEnv, ...marker };
      // The launcher's own sh, as the sandbox trusts it (a PATH entry elsewhere would not be shown).
      const trustedSh = this.resolver.resolve('sh', this.programFilter(spec.probe, spec.skillRoot ?? spec.snapshotDir)) ?? '/bin/sh';
      const user = this.user();
      const cap = processCap(spec.maxProcesses, backend.ownProcessCount === true, process.getuid?.(), '', this.fewestTasks);
      const sandboxed = { ...backend.launch({ run, argv: spec.argv, sh: trustedSh, user, cwd: spec.cwd, env, maxFileBytes: spec.maxFileBytes, processLimit: cap.rlimit, stateDir: this.stateDir, skillRoot: spec.skillRoot }, spec.probe), cap };
      // A root runner's sandbox drops to another account: the run's writable folders become that account's. The
      // staged skills folder stays the runner's (it is bound read-only anyway).
      if (spec.probe.handsOver && user.host) {
        const fresh = ['out', 'work', 'inputs', 'run'].map((d) => path.join(spec.workspace, d));
        handOver(spec.workspace, fresh, [spec.home, ...spec.depDirs], user.host);
      }
      // The sandbox program starts with an empty environment: nothing of the call's reaches it. The persistent
      // launcher spawns it when it runs, so it (bwrap passes what it inherits into the sandbox) inherits only the
      // launcher's 0, 1 and 2, and the run dies with the launcher when the runner goes away.
      if (await this.persistent.start(sh, fileSizeBlocks(spec.maxFileBytes))) return { ...sandboxed, start: this.startFor(marker) };
      return { ...sandboxed, ...this.fallback() };
    }
    const base = { ...spec.hostEnv, ...spec.runtimeEnv, ...marker };
    if (!found) {
      // No POSIX sh (Windows): the script is started directly, its parent the runner (README: limits).
      const cap = { rlimit: '-', said: 'not capped: no POSIX sh here to set a process limit' };
      return { program: spec.argv[0], args: spec.argv.slice(1), env: { ...spec.hostEnv, ...spec.callEnv, ...spec.runtimeEnv, ...marker }, cap };
    }
    const uid = process.getuid?.();
    // Descendants of the run's leader (a setsid child keeps its parent) plus whatever carries the marker.
    const sweep = (pid: number) => void killRunProcesses(pid, `${RUN_MARKER_VAR}=${spec.runId}`);
    const blocks = fileSizeBlocks(spec.maxFileBytes);
    if (await this.persistent.start(sh, blocks)) {
      // The persistent launcher is the script's parent: started with an empty environment, it passes this
      // run's (the call's env under the runtime's) to this run's spawn only. The script inherits the
      // launcher's file-size limit; another limit than the launcher's is set by `sh`, which execs the script.
      const env = { ...spec.hostEnv, ...spec.callEnv, ...spec.runtimeEnv, ...marker };
      // A start prepared for these limits, when one waits (preparedStart.ts): a root runner's with its pids cgroup joined
      // ahead; an ordinary user's counted among the user's tasks already, so one fewer is the run's own.
      const ready = uid !== undefined ? this.prepared.take({ sh, blocks, allowance: spec.maxProcesses }) : undefined;
      const fewest = ready ? (u: number, a: number) => Math.max(0, this.fewestTasks(u, a) - 1) : this.fewestTasks;
      const cap = ready?.cap ?? processCap(spec.maxProcesses, false, uid, spec.runId, fewest);
      const nproc = ready && !ready.cap && /^\d+$/.test(cap.rlimit) ? Number(cap.rlimit) : undefined;
      const go = ready && (ready.cap || nproc !== undefined) ? preparedCommand(spec.argv, env, spec.cwd, nproc) : undefined;
      if (ready && !go) this.prepared.unused(ready.id);
      // The launcher removes the run's pids cgroup if this runner goes before the run's release does.
      const start = this.startFor(marker, cap.cgroup, ready && go ? { id: ready.id, go } : undefined);
      // With a process cap to set, always through that `sh`.
      if (cap.rlimit === '-' && this.persistent.limitBlocks === blocks) return { program: spec.argv[0], args: spec.argv.slice(1), env, sweep, start, cap };
      return { program: sh, args: sandboxedCommand(sh, spec.argv, spec.maxFileBytes, cap.rlimit).slice(1), env, sweep, start, cap };
    }
    const cap = processCap(spec.maxProcesses, false, uid, spec.runId, this.fewestTasks);
    // The call may not re-tag the run: the sweep finds the run's processes by the marker.
    const launch = localLaunch(sh, spec.argv, base, spec.callEnv, [...Object.keys(spec.runtimeEnv), RUN_MARKER_VAR], spec.maxFileBytes, cap.rlimit);
    return { ...launch, sweep, cap, ...this.fallback() };
  }

  /**
   * Starts through the persistent launcher, which sweeps the run by `marker` if the runner goes away (and removes
   * `cgroup`, a root runner's pids cgroup for the run).
   */
  private startFor(marker: Record<string, string>, cgroup?: string, prepared?: StartSpec['prepared']): (s: StartSpec, on: ProcessEvents) => StartedProcess {
    const tag = Object.entries(marker).map(([k, v]) => `${k}=${v}`)[0];
    return (s, on) => this.persistent.run({ ...s, marker: tag, ...(cgroup ? { cgroup } : {}), ...(prepared ? { prepared } : {}) }, on);
  }

  /**
   * After a run's result, in the background: prepares the next unsandboxed start of a root runner (preparedStart.ts),
   * or an ordinary user's next count of tasks (userTasks.ts).
   */
  prepareNext(): void {
    this.prepared.prepareNext();
    this.tasks.prepareNext();
  }

  /** Drops what was prepared for a next run (the runner going idle leaves no process or cgroup behind), and waits for a count in flight. */
  async dropPrepared(): Promise<void> {
    await Promise.all([this.prepared.drop(), this.tasks.settled()]);
  }

  /**
   * The runner spawns the process itself (its persistent launcher could not start): the child inherits
   * every descriptor this process holds without close-on-exec, and neither Node nor a POSIX `sh` can close
   * them in the child (dash names only descriptors 0-9 in a redirection). Refused then, naming them, rather
   * than handing a script a descriptor of the editor's.
   */
  private fallback(): Record<string, never> {
    const fds = inheritedFds();
    if (fds.length > 0) {
      throw new ScriptRunError(
        'internal_error',
        `The script launcher could not start, and this process holds descriptors ${fds.slice(0, 10).join(', ')}${fds.length > 10 ? ', ...' : ''} open without close-on-exec, which a script started from here would inherit. Start the editor or agent-skills from a shell that does not pass them, or check that ${process.execPath} can run.`,
      );
    }
    return {};
  }
}

/** What {@link Launcher.build} needs of one run. */
export interface LaunchSpec {
  runId: string;
  /** The script's argv (absolute program first). */
  argv: readonly string[];
  hostEnv: Readonly<Record<string, string>>;
  callEnv: Readonly<Record<string, string>>;
  /** The runtime's variables (HOME, WORKSPACE_DIR...): they win over the call's. */
  runtimeEnv: Readonly<Record<string, string>>;
  probe?: SandboxProbe;
  workspace: string;
  skillsDir: string;
  snapshotDir: string;
  home: string;
  depDirs: readonly string[];
  /** Per-skill folder for the sandbox's generated passwd/group. */
  depsRoot: string;
  /** Sources of inputs staged as links. */
  linked: readonly string[];
  /** The skill's folder on the host (never shown in a sandbox: its snapshot is). */
  skillRoot?: string;
  cwd: string;
  maxFileBytes: number;
  /** Processes and threads the run may have at once (processLimit.ts). */
  maxProcesses: number;
}
