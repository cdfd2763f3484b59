import * as fs from 'node:fs';
import * as path from 'node:path';
import { ArtifactStore } from './artifactStore';
import { checkCommandPolicy, policyActive, splitCommandLine, type CommandPolicy } from './commandLine';
import { allowedHostEnv, buildEnv } from './env';
import { preparing, ScriptRunError } from './errors';
import { stageInputs } from './inputs';
import { planLaunch, ProgramResolver } from './interpreters';
import { resolveOptions, type ResolvedOptions, type ScriptRunnerOptions } from './options';
import { checkOutputsSpec, collectOutputs } from './outputs';
import { checkRelativePath, isInside, resolveInside } from './paths';
import { runProcess } from './processRunner';
import { bwrapArgs, probeSandbox } from './sandbox';
import { KnownSnapshots } from './knownSnapshots';
import { ensureSnapshot, removeTreeAsync, skillKey, snapshotExcludes } from './skillSnapshot';
import { SpareWorkspaces } from './spareWorkspaces';
import type { RunRequest, RunResult } from './types';
import { buildWorkspace, newRunId, pruneRuns, skillViewWarnings, workspaceAt, type RunWorkspace, type SkillView } from './workspace';

/** Runs skill scripts and commands in fresh workspaces. */
export interface ScriptRunner {
  /** Runs one script or command. Throws `ScriptRunError` when the request is refused; a failing script is a result. */
  run(req: RunRequest): Promise<RunResult>;
  /** The artifact store behind `artifact://` refs (`<stateDir>/artifacts`). */
  readonly artifacts: ArtifactStore;
  /** Absolute path of a file of a kept run, from a `run://<run_id>/<path>` ref; undefined when gone. */
  resolveRunRef(ref: string): string | undefined;
  /** Resolves when the background removal of old run folders has finished (for shutdown and tests). */
  idle(): Promise<void>;
}

const CWD_VAR = /^\$\{?(WORK_DIR|OUTPUT_DIR|WORKSPACE_DIR|RUN_DIR|SKILLS_DIR)\}?(?=\/|$)\/?/;
const CWD_DIRS: Record<string, string> = { WORK_DIR: 'work', OUTPUT_DIR: 'out', WORKSPACE_DIR: '', RUN_DIR: 'run', SKILLS_DIR: 'skills' };
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Creates a runner. Nothing is spawned or written until the first run. */
export function createScriptRunner(options: ScriptRunnerOptions): ScriptRunner {
  const opts = resolveOptions(options);
  if (!path.isAbsolute(opts.stateDir)) throw new Error(`ScriptRunnerOptions.stateDir "${opts.stateDir}" must be an absolute path.`);
  const runsDir = path.join(opts.stateDir, 'runs');
  const artifacts = new ArtifactStore(path.join(opts.stateDir, 'artifacts'));
  const resolver = new ProgramResolver(process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin');
  const policy: CommandPolicy = { allowed: opts.allowedCommands, denied: opts.deniedCommands };
  const active = new Set<string>();
  const madeDirs = new Set<string>();
  const cleanups = new Set<Promise<void>>();
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
    },
    run: (req) => runOnce(req, { opts, runsDir, artifacts, resolver, policy, active, ensureDir, cleanups, spares, hostEnv, snapshots, snapshotsDir, excludes, keyOf }),
  };
}

interface RunnerContext {
  opts: ResolvedOptions;
  runsDir: string;
  artifacts: ArtifactStore;
  resolver: ProgramResolver;
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

function validate(req: RunRequest): void {
  const bad = (msg: string): never => {
    throw new ScriptRunError('invalid_request', msg);
  };
  if (!req.skillName || /[/\\\0]/.test(req.skillName) || req.skillName === '.' || req.skillName === '..') bad(`skillName "${req.skillName}" is not a plain skill name.`);
  if (!path.isAbsolute(req.skillRoot)) bad(`skillRoot "${req.skillRoot}" must be an absolute folder path.`);
  if (!fs.statSync(req.skillRoot, { throwIfNoEntry: false })?.isDirectory()) {
    throw new ScriptRunError('not_found', `skillRoot ${req.skillRoot} is not a folder; reload the skill list.`);
  }
  if ((req.script === undefined) === (req.command === undefined)) bad('give exactly one of `script` (a file under the skill) and `command`.');
  if (req.command !== undefined && !req.command.trim()) bad('command is empty; give a program and its arguments.');
  for (const key of Object.keys(req.env ?? {})) if (!ENV_NAME.test(key)) bad(`env key "${key}" is not a valid variable name (letters, digits, _).`);
  if (req.timeoutMs !== undefined && !(req.timeoutMs > 0)) bad(`timeoutMs ${req.timeoutMs} must be a positive number of milliseconds.`);
}

/** The real path of an existing folder, or undefined (a missing overlay: nothing edited yet). */
function realFolder(dir: string): string | undefined {
  if (!path.isAbsolute(dir)) throw new ScriptRunError('invalid_request', `overlayRoot "${dir}" must be an absolute folder path.`);
  try {
    const real = fs.realpathSync.native(dir);
    return fs.statSync(real).isDirectory() ? real : undefined;
  } catch {
    return undefined;
  }
}

function resolveCwd(req: RunRequest, ws: RunWorkspace, snapshotDir: string): string {
  if (req.cwd === undefined || req.cwd === '' || req.cwd === '.') return ws.skillDir;
  const m = CWD_VAR.exec(req.cwd);
  const rel = m ? path.posix.join(CWD_DIRS[m[1]], req.cwd.slice(m[0].length)) : req.cwd;
  const base = m ? ws.root : ws.skillDir;
  const clean = checkRelativePath(rel, 'cwd', m ? 'path_outside_workspace' : 'path_outside_skill', m ? 'the workspace' : 'the skill root');
  const target = path.join(base, clean);
  let real: string;
  try {
    real = fs.realpathSync(target);
  } catch {
    throw new ScriptRunError('not_found', `cwd "${req.cwd}" does not exist in the workspace; create it first or use $WORK_DIR.`);
  }
  if (!isInside(ws.root, real) && !isInside(snapshotDir, real)) {
    throw new ScriptRunError('path_outside_skill', `cwd "${req.cwd}" resolves to ${real}, outside the run's workspace; give a folder inside it.`);
  }
  if (!fs.statSync(real).isDirectory()) throw new ScriptRunError('invalid_request', `cwd "${req.cwd}" is a file; give a folder.`);
  return target;
}

async function runOnce(req: RunRequest, ctx: RunnerContext): Promise<RunResult> {
  const { opts } = ctx;
  const started = performance.now();
  validate(req);
  const realRoot = fs.realpathSync.native(req.skillRoot);
  const realOverlay = req.overlayRoot !== undefined ? realFolder(req.overlayRoot) : undefined;
  const scriptRel = req.script !== undefined ? checkRelativePath(req.script, 'script', 'path_outside_skill', `the root of skill "${req.skillName}"`) : undefined;
  if (req.script !== undefined) {
    // An edited script of a read-only skill is in the overlay; every other script in the skill folder.
    const inOverlay = realOverlay !== undefined && fs.existsSync(`${realOverlay}/${scriptRel}`);
    const real = resolveInside(inOverlay ? realOverlay : realRoot, req.script, `skill "${req.skillName}": script`, 'path_outside_skill', true);
    if (!fs.statSync(real).isFile()) throw new ScriptRunError('invalid_request', `script "${req.script}" is a folder; give a file such as scripts/run.py.`);
  }
  let commandArgv: string[] | undefined;
  if (req.command !== undefined && policyActive(ctx.policy)) {
    commandArgv = splitCommandLine(req.command);
    checkCommandPolicy(commandArgv, ctx.policy);
  }
  if (req.outputs) checkOutputsSpec(req.outputs);

  const policy = req.sandbox ?? opts.sandbox;
  let sandboxProgram: string | undefined;
  let sandboxReason: string | undefined;
  if (policy === 'off') sandboxReason = 'sandbox is off for this run';
  else {
    const probe = await probeSandbox(ctx.resolver, async (program, args) => {
      const r = await runProcess({ program, args, cwd: '/', env: { PATH: process.env.PATH ?? '' }, timeoutMs: 5000, killGraceMs: 100, stdoutCap: 1024, stderrCap: 1024 });
      return r.spawnError ? null : r.exitCode;
    });
    if (probe.available) sandboxProgram = probe.program;
    else if (policy === 'required') throw new ScriptRunError('sandbox_unavailable', `sandbox "required" but ${probe.reason}; or set sandbox to "auto".`);
    else sandboxReason = probe.reason;
  }

  const warnings: string[] = [];
  const phases = { create: 0, stage: 0, run: 0, collect: 0, cleanup: 0 };
  let t = performance.now();
  const lap = (phase: keyof typeof phases): void => {
    const now = performance.now();
    phases[phase] = Math.round((now - t) * 100) / 100;
    t = now;
  };

  let result: RunResult | undefined;
  // One key per skill, edited or not: its dependency folders (a .venv) survive an edit; the snapshot's
  // fingerprint covers the overlay, so an edit makes a new snapshot under the same key.
  const key = ctx.keyOf(req.skillName, realRoot);
  // A file system failure here is the runtime's, not the request's: `preparing` says which step and what to do.
  const snapshot = preparing(`Making the read-only copy of skill "${req.skillName}"`, ctx.snapshotsDir, () =>
    ensureSnapshot(ctx.snapshotsDir, key, realRoot, ctx.excludes, ctx.snapshots, realOverlay),
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
  lap('create');
  try {
    warnings.push(...snapshot.warnings, ...skillViewWarnings(view));
    if (req.inputs?.length) {
      warnings.push(
        ...(await stageInputs(req.inputs, {
          ws,
          artifacts: ctx.artifacts,
          workspaceDir: opts.workspaceDir,
          allowedHostPaths: opts.allowedHostPaths,
          resolveSkillRoot: opts.resolveSkillRoot,
        })),
      );
    }
    const cwd = resolveCwd(req, ws, snapshot.dir);
    const env = buildEnv(ctx.hostEnv, {
      WORKSPACE_DIR: ws.root,
      SKILLS_DIR: ws.skillsDir,
      WORK_DIR: ws.workDir,
      OUTPUT_DIR: ws.outDir,
      RUN_DIR: ws.runDir,
      SKILL_NAME: req.skillName,
      HOME: home,
      TMPDIR: ws.runDir,
    }, req.env);

    let argv: string[];
    if (scriptRel !== undefined) {
      const staged = path.join(ws.skillDir, scriptRel);
      const plan = planLaunch(staged, ctx.resolver);
      if ('missing' in plan) throw new ScriptRunError('interpreter_not_found', `script "${req.script}": ${plan.missing}.`);
      if (plan.warning) warnings.push(plan.warning);
      argv = plan.source === 'direct' && plan.program === staged ? [staged, ...(req.args ?? [])] : [plan.program, ...plan.args, staged, ...(req.args ?? [])];
    } else if (commandArgv) {
      argv = commandArgv;
    } else {
      const shell = ctx.resolver.resolve('bash') ?? ctx.resolver.resolve('sh');
      if (!shell) throw new ScriptRunError('interpreter_not_found', 'command needs bash or sh on PATH; neither was found. Run a skill script instead.');
      argv = [shell, '-c', req.command ?? ''];
    }
    if (sandboxProgram) {
      argv = [sandboxProgram, ...bwrapArgs({ workspace: ws.root, skillsDir: ws.skillsDir, writable: [...Object.values(depLinks), home], cwd }), ...argv];
    }
    lap('stage');

    const timeoutMs = Math.min(req.timeoutMs ?? opts.defaultTimeoutMs, opts.maxTimeoutMs);
    const running = runProcess({
      program: argv[0],
      args: argv.slice(1),
      cwd,
      env,
      timeoutMs,
      killGraceMs: opts.killGraceMs,
      stdoutCap: opts.stdoutCap,
      stderrCap: opts.stderrCap,
      signal: req.signal,
    });
    const outcome = await running;
    lap('run');
    let stderr = outcome.stderr;
    let exitCode = outcome.exitCode;
    if (outcome.spawnError) {
      exitCode = 127;
      stderr = `${argv[0]}: could not start (${outcome.spawnError.code ?? outcome.spawnError.message}); check that the program is installed and on PATH.`;
    }
    if (outcome.timedOut) warnings.push(`timed out after ${timeoutMs} ms; the process group was killed. Raise the timeout or make the script faster.`);
    if (outcome.stdoutTruncated) warnings.push(`stdout was cut at ${opts.stdoutCap} bytes; write large output to $OUTPUT_DIR and collect it with outputs.`);
    if (outcome.stderrTruncated) warnings.push(`stderr was cut at ${opts.stderrCap} bytes.`);

    const collected = req.outputs
      ? await collectOutputs(req.outputs, ws, opts, req.omitInlineContent ?? false, ctx.artifacts)
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
      execution_mode: sandboxProgram ? 'sandbox' : 'local',
      sandboxed: sandboxProgram !== undefined,
      ...(sandboxReason ? { sandbox_reason: sandboxReason } : {}),
      output_files: collected.files,
      ...(collected.primary ? { primary_output: collected.primary } : {}),
      artifact_files: collected.artifacts,
      warnings,
    };
    return result;
  } finally {
    ctx.active.delete(ws.runId);
    // After the result is handed back: remove old run folders and build the next run's workspace for this
    // skill (both on the thread pool). Neither runs while the process starts, which they would slow down.
    const pending = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      ctx.snapshots.release(snapshot.dir, ctx.excludes);
      ctx.spares.prepare(key, view);
      return pruneRuns(ctx.runsDir, opts.keepRuns, ctx.active);
    });
    ctx.cleanups.add(pending);
    void pending.then(() => ctx.cleanups.delete(pending));
    lap('cleanup');
    if (result) result.duration_ms = Math.round((performance.now() - started) * 100) / 100;
  }
}
