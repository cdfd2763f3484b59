import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ProgramResolver } from './interpreters';
import { fileSizeBlocks, localLaunch, RUN_MARKER_VAR, sandboxedCommand, type Launch } from './launcher';
import { PersistentLauncher } from './persistentLauncher';
import { killRunProcesses } from './processTree';
import { runProcess } from './processRunner';
import { bwrapArgs, probeSandbox, statusOf, type SandboxProbe } from './sandbox';
import type { SandboxStatus } from './sandboxStatus';
import type { ProcessEvents, StartedProcess, StartSpec } from './startedProcess';
import { hostSystemView, identityFiles, interpreterBinds, sandboxUser } from './sandboxView';
import type { SandboxPolicy } from './execTypes';

/** Decides and builds how a run's process is started; one per runner (it remembers what it looked up). */
export class Launcher {
  private readonly binds = new Map<string, string[]>();
  private readonly identities = new Set<string>();
  /** Starts every unsandboxed run (where it can start: else the `sh` launcher does, one process more per run). */
  private readonly persistent = new PersistentLauncher();

  constructor(
    private readonly resolver: ProgramResolver,
    /** The runner's state folder: never shown inside a sandbox, except the run's own parts. */
    private readonly stateDir: string,
  ) {}

  /** Probes the sandbox (once per bwrap) with the isolation a run uses, and says what `policy` will do. */
  async status(policy: SandboxPolicy): Promise<{ status: SandboxStatus; probe?: SandboxProbe }> {
    if (policy === 'off') return { status: statusOf(policy, undefined) };
    const probe = await probeSandbox(
      this.resolver,
      async (program, args) => {
        const r = await runProcess({ program, args, cwd: '/', env: {}, timeoutMs: 5000, killGraceMs: 100, stdoutCap: 16384, stderrCap: 4096 });
        return { code: r.spawnError ? null : r.exitCode, output: `${r.stderr}\n${r.stdout}` };
      },
      (disableUserns, sizeOption) => ({ args: this.trialArgs(disableUserns, sizeOption) }),
    );
    return { status: statusOf(policy, probe), probe };
  }

  /** A run of `true` in the same sandbox a script gets (system view, identity, namespaces). */
  private trialArgs(disableUserns: boolean, sizeOption: boolean): string[] {
    const dir = this.identityDir(path.join(this.stateDir, 'probe'), '/');
    const truePath = this.resolver.resolve('true') ?? '/bin/true';
    return [
      ...bwrapArgs({
        workspace: dir,
        skillsDir: dir,
        readOnly: [],
        writable: [],
        passwdFile: path.join(dir, 'passwd'),
        groupFile: path.join(dir, 'group'),
        user: this.user(),
        cwd: '/',
        env: { PATH: '/usr/bin:/bin' },
        disableUserns,
        tmpfsBytes: sizeOption ? 1024 * 1024 : undefined,
      }),
      truePath,
    ];
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

  private bindsFor(program: string): string[] {
    let b = this.binds.get(program);
    if (!b) this.binds.set(program, (b = interpreterBinds(program, hostSystemView(), [this.stateDir])));
    return b;
  }

  /** The process to spawn for `argv`, sandboxed when `probe` says bwrap works. */
  async build(spec: LaunchSpec): Promise<Launch & { sweep?: (pid: number) => void; start?: (spec: StartSpec, on: ProcessEvents) => StartedProcess }> {
    const found = this.resolver.resolve('sh');
    const sh = found ?? '/bin/sh';
    const marker = { [RUN_MARKER_VAR]: spec.runId };
    if (spec.probe?.available && spec.probe.program) {
      const etc = this.identityDir(path.join(spec.depsRoot, 'sandbox-etc'), spec.home);
      const env = { ...spec.hostEnv, ...spec.callEnv, ...spec.runtimeEnv, ...marker };
      const readOnly = [spec.snapshotDir, ...this.bindsFor(spec.argv[0]), ...this.bindsFor(sh), ...spec.linked];
      const args = bwrapArgs({
        workspace: spec.workspace,
        skillsDir: spec.skillsDir,
        readOnly,
        writable: [spec.home, ...spec.depDirs],
        passwdFile: path.join(etc, 'passwd'),
        groupFile: path.join(etc, 'group'),
        user: this.user(),
        cwd: spec.cwd,
        env,
        disableUserns: spec.probe.disableUserns === true,
        // The private /tmp and /dev/shm hold memory, not disk: the run folder's cap bounds each.
        tmpfsBytes: spec.probe.sizeOption ? spec.maxFileBytes : undefined,
      });
      // bwrap starts with an empty environment: nothing of the call's reaches it.
      return { program: spec.probe.program, args: [...args, ...sandboxedCommand(sh, spec.argv, spec.maxFileBytes)], env: {} };
    }
    const base = { ...spec.hostEnv, ...spec.runtimeEnv, ...marker };
    if (!found) {
      // No POSIX sh (Windows): the script is started directly, its parent the runner (README: limits).
      return { program: spec.argv[0], args: spec.argv.slice(1), env: { ...spec.hostEnv, ...spec.callEnv, ...spec.runtimeEnv, ...marker } };
    }
    // Descendants of the run's leader (a setsid child keeps its parent) plus whatever carries the marker.
    const sweep = (pid: number) => void killRunProcesses(pid, `${RUN_MARKER_VAR}=${spec.runId}`);
    if (await this.persistent.start(sh, fileSizeBlocks(spec.maxFileBytes))) {
      // The persistent launcher is the script's parent: started with an empty environment, it passes this
      // run's (the call's env under the runtime's) to this run's spawn only. The script inherits the
      // launcher's file-size limit; another limit than the launcher's is set by `sh`, which execs the script.
      const env = { ...spec.hostEnv, ...spec.callEnv, ...spec.runtimeEnv, ...marker };
      const start = (s: StartSpec, on: ProcessEvents) => this.persistent.run(s, on);
      if (this.persistent.limitBlocks === fileSizeBlocks(spec.maxFileBytes)) return { program: spec.argv[0], args: spec.argv.slice(1), env, sweep, start };
      return { program: sh, args: sandboxedCommand(sh, spec.argv, spec.maxFileBytes).slice(1), env, sweep, start };
    }
    // The call may not re-tag the run: the sweep finds the run's processes by the marker.
    const launch = localLaunch(sh, spec.argv, base, spec.callEnv, [...Object.keys(spec.runtimeEnv), RUN_MARKER_VAR], spec.maxFileBytes);
    return { ...launch, sweep };
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
  cwd: string;
  maxFileBytes: number;
}
