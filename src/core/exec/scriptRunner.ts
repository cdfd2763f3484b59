import * as fs from 'node:fs';
import * as path from 'node:path';
import { ArtifactStore } from './artifactStore';
import { checkCommandPolicy, policyActive, splitCommandLine, type CommandPolicy } from './commandLine';
import { allowedHostEnv } from './env';
import { preparing, ScriptRunError } from './scriptRunError';
import { stageInputs } from './inputs';
import { planLaunch, ProgramResolver, selfNodeEnv, type ProgramFilter } from './interpreters';
import { resolveOptions, type ResolvedOptions, type ScriptRunnerOptions } from './options';
import { checkOutputsSpec, collectOutputs } from './outputs';
import { resolveInside } from './paths';
import { checkScript } from './scriptPath';
import { runProcess } from './processRunner';
import { Launcher } from './runLaunch';
import { RunSlots } from './runSlots';
import { describeSandbox, type SandboxStatus } from './sandboxStatus';
import { describeExceeded, diskUseQuick, SizeWatch, type SizeCap, type SizeExceeded } from './sizeWatch';
import { heldDeletedFiles } from './heldFiles';
import { RUN_MARKER_VAR } from './launcher';
import { runProcessIds } from './processTree';
import { KnownSnapshots } from './knownSnapshots';
import { ensureSnapshot, removeTreeAsync, skillKey, snapshotExcludes } from './skillSnapshot';
import { SpareWorkspaces } from './spareWorkspaces';
import { pluginRunParts } from './pluginRun';
import { argumentsTooBig, realFolder, resolveCwd, validate } from './runRequest';
import type { CheckedRun, RunRequest, RunResult, SandboxPolicy } from './execTypes';
import { buildWorkspace, newRunId, pruneRuns, skillViewWarnings, workspaceAt, type SkillView } from './workspace';

/** Runs skill scripts and commands in fresh workspaces. */
export interface ScriptRunner {
  /** Runs one script or command. Throws `ScriptRunError` when the request is refused; a failing script is a result. */
  run(req: RunRequest): Promise<RunResult>;
  /** The artifact store behind `artifact://` refs (`<stateDir>/artifacts`). */
  readonly artifacts: ArtifactStore;
  /** Absolute path of a file of a kept run, from a `run://<run_id>/<path>` ref; undefined when gone. */
  resolveRunRef(ref: string): string | undefined;
  /**
   * Resolves when the background removal of old run folders has finished and a start prepared for a next run is
   * dropped (for shutdown and tests: nothing of the runner's is left running).
   */
  idle(): Promise<void>;
  /**
   * Whether a run with `policy` (default the runner's) would be sandboxed, and why not: the same probe the
   * run decides with, for the confirmation shown before it.
   */
  sandboxStatus(policy?: SandboxPolicy): Promise<SandboxStatus>;
  /**
   * The checks `run` makes of a request before anything is staged (the request, the script inside the skill and a
   * regular file, the command policy, the outputs spec, a required sandbox), and nothing else: throws what `run`
   * would throw for them. For asking a user about a run only when it can run; says what the run reaches beyond its
   * own folders (a plugin's folder and data folder), so the question can say it too.
   */
  check(req: RunRequest): Promise<CheckedRun>;
}


/** Creates a runner. Nothing is spawned or written until the first run. */
export function createScriptRunner(options: ScriptRunnerOptions): ScriptRunner {
  const opts = resolveOptions(options);
  if (!path.isAbsolute(opts.stateDir)) throw new Error(`ScriptRunnerOptions.stateDir "${opts.stateDir}" must be an absolute path.`);
  const runsDir = path.join(opts.stateDir, 'runs');
  const artifacts = new ArtifactStore(path.join(opts.stateDir, 'artifacts'));
  const resolver = new ProgramResolver(opts.searchPath);
  const launcher = new Launcher(resolver, opts.stateDir);
  const policy: CommandPolicy = { allowed: opts.allowedCommands, denied: opts.deniedCommands };
  const active = new Set<string>();
  const madeDirs = new Set<string>();
  const cleanups = new Set<Promise<void>>();
  const slots = new RunSlots(opts.maxConcurrentRuns, opts.maxQueuedRuns);
  const spares = new SpareWorkspaces(path.join(opts.stateDir, 'spares'));
  const hostEnv = allowedHostEnv(process.env, opts.envAllowlist);
  const snapshots = new KnownSnapshots();
  const snapshotsDir = path.join(opts.stateDir, 'skills');
  const excludes = snapshotExcludes(opts.dependencyDirs);
  const keys = new Map<string, string>();
  const keyOf = (name: string, realRoot: string): string => {
    const id = `${name}\0${realRoot}`;
    let key = keys.get(id);
    if (key === undefined) keys.set(id, (key = skillKey(name, realRoot)));
    return key;
  };

  let ownStateDir: true | undefined;
  const ensureDir = (dir: string): string => {
    if (!madeDirs.has(dir)) {
      fs.mkdirSync(dir, { recursive: true });
      madeDirs.add(dir);
    }
    return dir;
  };

  return {
    artifacts,
    resolveRunRef(ref) {
      const m = /^run:\/\/([^/]+)\/(.+)$/.exec(ref);
      if (!m) return undefined;
      const root = path.join(runsDir, m[1]);
      try {
        const abs = resolveInside(root, m[2], 'ref', 'path_outside_workspace');
        return fs.statSync(abs).isFile() ? abs : undefined;
      } catch {
        return undefined;
      }
    },
    async idle() {
      while (cleanups.size > 0) await Promise.all([...cleanups]);
      await spares.idle();
      await launcher.dropPrepared();
    },
    sandboxStatus: async (p) => (await launcher.status(p ?? opts.sandbox)).status,
    async check(req) {
      await checkBeforeStaging(req, { opts, policy, launcher });
      return req.plugin ? { plugin: req.plugin } : {};
    },
    async run(req) {
      ownStateDir ??= keepToOwner(opts.stateDir);
      const { waitedMs } = await slots.acquire(req.signal);
      try {
        const result = await runOnce(req, { opts, runsDir, artifacts, resolver, launcher, policy, active, ensureDir, cleanups, spares, hostEnv, snapshots, snapshotsDir, excludes, keyOf });
        if (waitedMs > 0) result.warnings.unshift(`waited ${waitedMs} ms in the queue for a free run slot: ${slots.max} runs were already running (maxConcurrentRuns ${slots.max}).`);
        return result;
      } finally {
        slots.release();
      }
    },
  };
}

interface RunnerContext {
  opts: ResolvedOptions;
  runsDir: string;
  artifacts: ArtifactStore;
  resolver: ProgramResolver;
  launcher: Launcher;
  policy: CommandPolicy;
  active: Set<string>;
  ensureDir: (dir: string) => string;
  cleanups: Set<Promise<void>>;
  spares: SpareWorkspaces;
  /** The host variables a script may see, taken when the runner was made. */
  hostEnv: Readonly<Record<string, string>>;
  /** What this runner has read of its snapshots. */
  snapshots: KnownSnapshots;
  /** `<stateDir>/skills`, where snapshots live. */
  snapshotsDir: string;
  /** Names never copied into a snapshot. */
  excludes: ReadonlySet<string>;
  /** The snapshot key of a skill (name plus a hash of its real root), remembered. */
  keyOf: (name: string, realRoot: string) => string;
}


async function runOnce(req: RunRequest, ctx: RunnerContext): Promise<RunResult> {
  const { opts } = ctx;
  const started = performance.now();
  const { realRoot, realOverlay, scriptRel, commandArgv, sandbox, probe } = await checkBeforeStaging(req, ctx);

  const warnings: string[] = [];
  const phases = { create: 0, stage: 0, run: 0, collect: 0, cleanup: 0 };
  let t = performance.now();
  const lap = (phase: keyof typeof phases): void => {
    const now = performance.now();
    phases[phase] = Math.round((now - t) * 100) / 100;
    t = now;
  };

  let result: RunResult | undefined;
  const { key, snapshot, depsRoot, depLinks, home, view, ws } = prepareRun(req, ctx, realRoot, realOverlay);
  lap('create');
  const linked: string[] = [];
  let runOverCap = false;
  try {
    warnings.push(...snapshot.warnings, ...skillViewWarnings(view));
    // `auto` found no sandbox: say so in the result too (the user chose `off` knowingly).
    if (!sandbox.sandboxed && sandbox.policy === 'auto') warnings.push(describeSandbox(sandbox));
    // Sandboxed without a protection this host cannot give (the keyring filter): said in the result too.
    if (sandbox.missing?.length) warnings.push(`The sandbox lacks a protection here: ${sandbox.missing.join('; ')}.`);
    if (req.inputs?.length) {
      warnings.push(
        ...(await stageInputs(req.inputs, {
          ws,
          artifacts: ctx.artifacts.scoped(req.artifactScope),
          workspaceDir: opts.workspaceDir,
          allowedHostPaths: opts.allowedHostPaths,
          privateDirs: opts.privateDirs,
          resolveSkillRoot: opts.resolveSkillRoot,
          files: opts.files,
          linked,
        })),
      );
    }
    const cwd = resolveCwd(req, ws);
    const plugin = pluginRunParts(req.plugin, ws.skillDir);
    // The workspace variables describe where things are; a call's env cannot point them elsewhere.
    const runtimeEnv = {
      ...plugin.env,
      WORKSPACE_DIR: ws.root,
      SKILLS_DIR: ws.skillsDir,
      WORK_DIR: ws.workDir,
      OUTPUT_DIR: ws.outDir,
      RUN_DIR: ws.runDir,
      SKILL_NAME: req.skillName,
      HOME: home,
      TMPDIR: ws.runDir,
    };

    // With a sandbox, only programs it trusts by their real path (never one the skill ships or links to).
    const accept = ctx.launcher.programFilter(sandbox.sandboxed ? probe : undefined, realRoot);
    const argv = argvOf(req, ctx, scriptRel === undefined ? undefined : path.join(ws.skillDir, scriptRel), commandArgv, warnings, accept);
    const launch = await ctx.launcher.build({
      runId: ws.runId,
      argv,
      hostEnv: ctx.hostEnv,
      callEnv: req.env ?? {},
      runtimeEnv: { ...runtimeEnv, ...selfNodeEnv(argv[0]) },
      probe: sandbox.sandboxed ? probe : undefined,
      workspace: ws.root,
      skillsDir: ws.skillsDir,
      snapshotDir: snapshot.dir,
      home,
      depDirs: [...Object.values(depLinks), ...plugin.writable],
      depsRoot,
      linked: [...linked, ...plugin.readOnly],
      skillRoot: realRoot,
      cwd,
      maxFileBytes: opts.maxRunBytes,
      maxProcesses: opts.maxRunProcesses,
    });
    lap('stage');

    const caps = sizeCaps(ws.root, [home, ...Object.values(depLinks), ...plugin.writable], opts);
    const stop = new AbortController();
    let exceeded: SizeExceeded | undefined;
    let leader: number | undefined;
    // Files the run's processes deleted but still hold: found from the leader's descendants and the run's marker.
    const held = (devs: ReadonlySet<number>) => (leader === undefined ? Promise.resolve([]) : heldDeletedFiles(runProcessIds(leader, `${RUN_MARKER_VAR}=${ws.runId}`), devs, opts.maxRunBytes));
    const watch = new SizeWatch(caps, (e) => {
      exceeded = e;
      stop.abort();
    }, undefined, held);
    const timeoutMs = Math.min(req.timeoutMs ?? opts.defaultTimeoutMs, opts.maxTimeoutMs);
    const running = runProcess({
      program: launch.program,
      args: launch.args,
      cwd,
      env: launch.env,
      timeoutMs,
      killGraceMs: opts.killGraceMs,
      stdoutCap: opts.stdoutCap,
      stderrCap: opts.stderrCap,
      signal: req.signal,
      stop: stop.signal,
      pipeGraceMs: opts.pipeGraceMs,
      sweep: launch.sweep,
      start: launch.start,
      pins: launch.pins,
      onPid: (p) => (leader = p),
    });
    watch.start();
    // The run ends when its pids cgroup is gone (a root runner without a sandbox): a CLI exiting on the result leaves none.
    const outcome = await running.finally(async () => {
      watch.stop();
      await launch.release?.();
    });
    lap('run');
    // A short run may pass the cap between two walks: look once more (a few folders when it did not).
    if (!exceeded) {
      const used = await diskUseQuick(caps[0]);
      if (used > caps[0].capBytes) exceeded = { cap: caps[0], used };
    }
    if (exceeded) {
      runOverCap = exceeded.cap === caps[0];
      warnings.push(describeExceeded(exceeded, outcome.stopped ? 'the script was stopped' : 'the script had ended') + (runOverCap ? ' The run folder is removed after this result; its run:// refs will not resolve.' : ''));
    }
    warnings.push(...outcomeWarnings(outcome, opts, timeoutMs));
    const spawnError = outcome.spawnError;
    if (spawnError?.code === 'E2BIG') throw argumentsTooBig(req);
    const exitCode = spawnError ? 127 : outcome.exitCode;
    const stderr = spawnError ? `${argv[0]}: could not start (${spawnError.code ?? spawnError.message}); check that the program is installed and on PATH.` : outcome.stderr;

    const collected = req.outputs
      ? await collectOutputs(req.outputs, ws, opts, req.omitInlineContent ?? false, ctx.artifacts.scoped(req.artifactScope))
      : { files: [], primary: undefined, artifacts: [], warnings: [] };
    warnings.push(...collected.warnings);
    lap('collect');

    result = {
      run_id: ws.runId,
      exit_code: exitCode,
      signal: outcome.signal,
      stdout: outcome.stdout,
      stderr,
      stdout_truncated: outcome.stdoutTruncated,
      stderr_truncated: outcome.stderrTruncated,
      timed_out: outcome.timedOut,
      cancelled: outcome.cancelled,
      duration_ms: 0,
      phases,
      argv,
      execution_mode: sandbox.sandboxed ? 'sandbox' : 'local',
      sandboxed: sandbox.sandboxed,
      ...(sandbox.reason ? { sandbox_reason: sandbox.reason } : {}),
      ...(sandbox.missing?.length ? { sandbox_missing: sandbox.missing } : {}),
      processes: launch.processes,
      output_files: collected.files,
      ...(collected.primary ? { primary_output: collected.primary } : {}),
      artifact_files: collected.artifacts,
      warnings,
    };
    return result;
  } finally {
    ctx.active.delete(ws.runId);
    // After the result is handed back: remove old run folders, build the next run's workspace for this skill (both on
    // the thread pool) and prepare the next start (preparedStart.ts). None runs while the process starts, which they
    // would slow down.
    const pending = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      ctx.snapshots.release(snapshot.dir, ctx.excludes);
      ctx.launcher.prepareNext();
      ctx.spares.prepare(key, view);
      // A run folder past its cap is not kept for run:// refs: it would hold the disk.
      const over = runOverCap ? removeTreeAsync(ws.root).catch(() => undefined) : undefined;
      return Promise.all([over, pruneRuns(ctx.runsDir, opts.keepRuns, ctx.active)]).then(() => undefined);
    });
    ctx.cleanups.add(pending);
    void pending.then(() => ctx.cleanups.delete(pending));
    lap('cleanup');
    if (result) result.duration_ms = Math.round((performance.now() - started) * 100) / 100;
  }
}

/** Every check of a run before anything is made: the request's ({@link checkRequest}) and a required sandbox that is missing. */
async function checkBeforeStaging(req: RunRequest, ctx: Pick<RunnerContext, 'opts' | 'policy' | 'launcher'>) {
  const checked = checkRequest(req, ctx);
  const { status: sandbox, probe } = await ctx.launcher.status(req.sandbox ?? ctx.opts.sandbox);
  if (sandbox.refused) throw new ScriptRunError('sandbox_unavailable', describeSandbox(sandbox));
  return { ...checked, sandbox, probe };
}

/** The request's checks before anything is made: paths inside the skill, the command policy, the outputs spec. */
function checkRequest(req: RunRequest, ctx: Pick<RunnerContext, 'opts' | 'policy'>): { realRoot: string; realOverlay?: string; scriptRel?: string; commandArgv?: string[] } {
  // The skill and its overlay are read where the skills live (the runner's `files` host), not necessarily on the disk.
  const { files } = ctx.opts;
  validate(req, files);
  const realRoot = files.realPath(req.skillRoot);
  if (realRoot === undefined) throw new ScriptRunError('not_found', `skillRoot ${req.skillRoot} is not a folder; reload the skill list.`);
  const realOverlay = req.overlayRoot !== undefined ? realFolder(files, req.overlayRoot) : undefined;
  const scriptRel = req.script !== undefined ? checkScript(req, req.script, files, realRoot, realOverlay) : undefined;
  let commandArgv: string[] | undefined;
  if (req.command !== undefined && policyActive(ctx.policy)) {
    commandArgv = splitCommandLine(req.command);
    checkCommandPolicy(commandArgv, ctx.policy);
  }
  if (req.outputs) checkOutputsSpec(req.outputs);
  return { realRoot, realOverlay, scriptRel, commandArgv };
}

/**
 * What a run needs on disk: the skill's read-only snapshot (acquired), its dependency folders and HOME, and the
 * run's workspace (the spare one built ahead for this skill, else a new one), marked active.
 */
function prepareRun(req: RunRequest, ctx: RunnerContext, realRoot: string, realOverlay: string | undefined) {
  const { opts } = ctx;
  // One key per skill, edited or not: its dependency folders (a .venv) survive an edit; the snapshot's
  // fingerprint covers the overlay, so an edit makes a new snapshot under the same key.
  const key = ctx.keyOf(req.skillName, realRoot);
  // A file system failure here is the runtime's, not the request's: `preparing` says which step and what to do.
  const snapshot = preparing(`Making the read-only copy of skill "${req.skillName}"`, ctx.snapshotsDir, () =>
    ensureSnapshot(ctx.snapshotsDir, key, { files: opts.files, root: realRoot, overlay: realOverlay }, ctx.excludes, ctx.snapshots),
  );
  const depsRoot = path.join(opts.stateDir, 'deps', key);
  const depLinks: Record<string, string> = {};
  const home = preparing(`Making the dependency folders and HOME of skill "${req.skillName}"`, depsRoot, () => {
    for (const name of opts.dependencyDirs) depLinks[name] = ctx.ensureDir(path.join(depsRoot, name));
    return ctx.ensureDir(path.join(depsRoot, 'home'));
  });
  ctx.snapshots.acquire(snapshot.dir);
  const view: SkillView = { skillName: req.skillName, snapshotDir: snapshot.dir, entries: snapshot.entries, depLinks };
  const ws = workspaceAt(preparing('Making the runs folder', ctx.runsDir, () => ctx.ensureDir(ctx.runsDir)), newRunId(), req.skillName);
  // The workspace built ahead of time for this skill (one rename), else built now.
  const spare = ctx.spares.take(key, view);
  let claimed = false;
  if (spare) {
    try {
      fs.renameSync(spare, ws.root);
      claimed = true;
    } catch {
      void removeTreeAsync(spare).catch(() => undefined);
    }
  }
  if (!claimed) preparing(`Making the run folder of skill "${req.skillName}"`, ctx.runsDir, () => buildWorkspace(ws.root, view));
  ctx.active.add(ws.runId);
  return { key, snapshot, depsRoot, depLinks, home, view, ws };
}

/** The program and arguments to start: the staged script through its interpreter, the policy-checked command, or a shell. */
function argvOf(req: RunRequest, ctx: RunnerContext, staged: string | undefined, commandArgv: string[] | undefined, warnings: string[], accept?: ProgramFilter): string[] {
  if (staged !== undefined) {
    const plan = planLaunch(staged, ctx.resolver, accept);
    if ('missing' in plan) throw new ScriptRunError('interpreter_not_found', `script "${req.script}": ${plan.missing}.`);
    if (plan.warning) warnings.push(plan.warning);
    return plan.source === 'direct' && plan.program === staged ? [staged, ...(req.args ?? [])] : [plan.program, ...plan.args, staged, ...(req.args ?? [])];
  }
  if (commandArgv) {
    // Found on the runner's PATH, before the call's env (which may set PATH) applies.
    const named = commandArgv[0].includes('/');
    const program = ctx.resolver.resolve(commandArgv[0], accept, named);
    const elsewhere = !program && accept ? ctx.resolver.resolve(commandArgv[0]) : undefined;
    if (elsewhere && named) throw new ScriptRunError('interpreter_not_found', `command: program "${commandArgv[0]}" is not in a system folder the sandbox shows, and a program given by its path is never bound in; give its name (as found on PATH) instead, or run with the sandbox off.`);
    if (elsewhere) throw new ScriptRunError('interpreter_not_found', `command: program "${commandArgv[0]}" was found at ${elsewhere}, outside the system and toolchain folders the sandbox shows; install it under /usr or /opt, or run with the sandbox off.`);
    if (!program) throw new ScriptRunError('interpreter_not_found', `command: program "${commandArgv[0]}" is not on PATH; install it or run a skill script instead.`);
    return [program, ...commandArgv.slice(1)];
  }
  const shell = ctx.resolver.resolve('bash', accept) ?? ctx.resolver.resolve('sh', accept);
  if (!shell) throw new ScriptRunError('interpreter_not_found', 'command needs bash or sh on PATH; neither was found. Run a skill script instead.');
  return [shell, '-c', req.command ?? ''];
}

/** What the result says about how the process ended: held pipes, the timeout, cut output. */
function outcomeWarnings(outcome: Awaited<ReturnType<typeof runProcess>>, opts: RunnerContext['opts'], timeoutMs: number): string[] {
  const warnings: string[] = [];
  if (outcome.pipesHeld) warnings.push(`a process the script started still held stdout/stderr ${opts.pipeGraceMs} ms after the script ended; it was killed and reading stopped.`);
  if (outcome.timedOut) warnings.push(`timed out after ${timeoutMs} ms; the process group was killed. Raise the timeout or make the script faster.`);
  if (outcome.stdoutTruncated) warnings.push(`stdout was cut at ${opts.stdoutCap} bytes; write large output to $OUTPUT_DIR and collect it with outputs.`);
  if (outcome.stderrTruncated) warnings.push(`stderr was cut at ${opts.stderrCap} bytes.`);
  return warnings;
}

/** The run folder's cap (first) and the skill's persistent folders' cap. */
function sizeCaps(runRoot: string, persistent: string[], opts: ResolvedOptions): SizeCap[] {
  return [
    { label: 'the run folder', dirs: [runRoot], capBytes: opts.maxRunBytes, skipTop: new Set(['skills']), setting: 'maxRunBytes (setting agentSkills.scripts.maxRunMB)' },
    { label: "the skill's HOME, dependency folders and plugin data", dirs: persistent, capBytes: opts.maxHomeBytes, setting: 'maxHomeBytes (setting agentSkills.scripts.maxHomeMB)' },
  ];
}

/**
 * Makes the runner's state folder (runs, skills' HOME, snapshots, artifacts) reachable by the runner's own account
 * only, whatever its parents allow. A script may set the set-user-id bit on a file it writes there (inside, it is the
 * runner's uid; a root runner's script is the host's root without capabilities): no other account may reach it.
 */
function keepToOwner(dir: string): true {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if ((fs.statSync(dir).mode & 0o077) !== 0) fs.chmodSync(dir, 0o700);
  return true;
}
