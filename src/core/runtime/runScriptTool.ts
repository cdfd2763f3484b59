import type { CheckedRun } from '../exec/execTypes';
import type { RequestPathProblem } from '../exec/scriptRunError';
import { ToolError } from '../tools/toolError';
import { skillPathError } from './skillPaths';
import { pickLoaded, sessionOf, type ToolCall, type ToolContext } from './toolContext';
import { succeeded, type ToolSuccess } from '../tools/toolResult';
import type { RunScriptInput } from './runtimeToolInputs';
import type { ActiveSkill, ExecRequest, ExecResultLike, ScriptExecutor } from './runtimeTypes';

/** The executor's result, plus the skill it ran for. */
export type RunScriptResult = ExecResultLike & { skill: string };

/** A run the runtime's check lets through: the skill it runs, and (a plugin skill) the plugin folders it reaches. */
export interface CheckedScript {
  skill: string;
  plugin?: { root: string; dataDir: string };
}

/** What a run needs of its skill: a loaded one, or a record the user picked outside any session. */
export type RunTarget = Pick<ActiveSkill, 'id' | 'name' | 'root_dir'>;

/**
 * `run_script`: runs a script (or command) of a loaded skill through the executor. The skill's
 * lifecycle goes `executing` while it runs and `completed` after (a non-zero exit is still a result);
 * a refused run puts it back to `loaded`.
 */
export async function runSkillScript(ctx: ToolContext, call: ToolCall, input: RunScriptInput): Promise<ToolSuccess<RunScriptResult>> {
  const active = pickLoaded(sessionOf(ctx, call), input.skill, 'run_script');
  const execute = await prepareScriptRun(ctx, active, input, call.signal, ctx.artifactScope(call));
  const skills = [{ name: active.name, digest: active.digest }];
  await ctx.sessions.update(call.sessionId, 'run-start', (s) => {
    s.lifecycle[active.name] = 'executing';
    s.last_used[active.name] = ctx.now().toISOString();
  });
  let finalState: 'completed' | 'loaded' = 'loaded';
  try {
    const result = await execute();
    finalState = 'completed';
    return succeeded('run_script', { skill: active.name, ...result }, skills);
  } finally {
    await ctx.sessions
      .update(call.sessionId, finalState === 'completed' ? 'run-end' : 'run-refused', (s) => {
        // The skill may have been unloaded (another call, a new turn) while it ran.
        if (!s.active_skills.some((a) => a.name === active.name)) return false;
        s.lifecycle[active.name] = finalState;
      })
      .catch(() => undefined);
  }
}

/**
 * `run_script`'s checks of a call without running it or changing the session: the loaded skill it would run (its
 * name), or the ToolError its run would be refused with, from the runner's own checks before staging (so a front end
 * asks a user only about a run that can happen).
 */
export async function checkSkillScript(ctx: ToolContext, call: ToolCall, input: RunScriptInput): Promise<CheckedScript> {
  // A session the call would open (invoke opens one) holds no skill yet: refused in the run's words.
  const active = pickLoaded(ctx.sessions.get(call.sessionId) ?? { active_skills: [] }, input.skill, 'run_script');
  const executor = executorOf(ctx);
  let checked: CheckedRun | void;
  try {
    checked = await executor.check(execRequestOf(ctx, active, input));
  } catch (e) {
    throw runError(active, input, e);
  }
  return { skill: active.name, ...(checked?.plugin ? { plugin: { root: checked.plugin.root, dataDir: checked.plugin.dataDir } } : {}) };
}

/**
 * The session-free part of `run_script`, shared with a user's own run of a script (no chat session): checks the
 * request against the skill, then returns the run itself, which goes through the executor (fresh workspace,
 * environment, sandbox, limits) and turns the engine's refusals into tool errors.
 */
export async function prepareScriptRun(
  ctx: Pick<ToolContext, 'executor' | 'source' | 'content'>,
  target: RunTarget,
  input: RunScriptInput,
  signal?: AbortSignal,
  artifactScope?: string,
): Promise<() => Promise<ExecResultLike>> {
  const executor = executorOf(ctx);
  const request = execRequestOf(ctx, target, input, signal, artifactScope);
  return async () => {
    try {
      return await executor.run(request);
    } catch (e) {
      throw runError(target, input, e);
    }
  };
}

function executorOf(ctx: Pick<ToolContext, 'executor'>): ScriptExecutor {
  if (!ctx.executor) {
    throw new ToolError('no_executor', 'Script execution is not available in this host.', 'Tell the user the skill needs a script run, and show the command so they can run it themselves.');
  }
  return ctx.executor;
}

/** The exec request of a run of `input` in `target`: one for the run and for its check. */
function execRequestOf(ctx: Pick<ToolContext, 'source'>, target: RunTarget, input: RunScriptInput, signal?: AbortSignal, artifactScope?: string): ExecRequest {
  // An edited plugin or pack skill: its newest revisions live in the source's overlay, which the run's copy
  // of the skill takes them from. Whether the script is inside the skill (or its overlay) and a regular file is the
  // runner's decision, made once; its refusal is worded here as read words the same path.
  const overlayRoot = ctx.source.overlayDir?.(target.id);
  return {
    skillName: target.name,
    skillRoot: target.root_dir,
    ...(overlayRoot ? { overlayRoot } : {}),
    // Exactly one of the two: the input schema refused a call with both or neither (decided there once).
    ...(input.script !== undefined ? { script: input.script } : { command: input.command as string }),
    ...(input.args ? { args: input.args } : {}),
    ...(input.env ? { env: input.env } : {}),
    ...(input.cwd ? { cwd: input.cwd } : {}),
    ...(input.timeout_seconds ? { timeoutMs: Math.round(input.timeout_seconds * 1000) } : {}),
    ...(input.inputs ? { inputs: input.inputs } : {}),
    ...(input.outputs ? { outputs: input.outputs } : {}),
    ...(input.omit_inline_content ? { omitInlineContent: true } : {}),
    ...(signal ? { signal } : {}),
    ...(artifactScope !== undefined ? { artifactScope } : {}),
  };
}

/** The runner's refusal (or failure) of a run as the tool's error. */
function runError(target: RunTarget, input: RunScriptInput, e: unknown): ToolError {
  if (e instanceof ToolError) return e;
  const err = e as Error & { code?: string; path?: RequestPathProblem };
  if (err.path?.field === 'script' && input.script !== undefined) return scriptError(target, input.script, err.path);
  const details = err.code ? { exec_code: err.code } : undefined;
  // A refusal names the field and the fix. Anything else (a file system error while staging, a bug) is the
  // runtime's own failure: its own code and a hint that says so, never "fix the field".
  if (err.code !== undefined && REFUSALS.has(err.code)) return new ToolError('run_refused', err.message, hintForRunError(err.code, target.name), details);
  return new ToolError('run_failed', internalMessage(err), RUN_FAILED_HINT, details);
}

/** The runner's refusal of the script's path, in the words read uses for that path. */
function scriptError(target: RunTarget, script: string, problem: RequestPathProblem): ToolError {
  if (problem.kind === 'directory') return new ToolError('not_found', `'${script}' of skill '${target.name}' is a folder, not a script.`, `Call read with path '${script}' to list it, then pass a file.`);
  if (problem.kind === 'other') return new ToolError('path_refused', `'${script}' of skill '${target.name}' is refused: it is not a regular file (a device, pipe or socket), not a script.`, 'Pass a regular file of the skill, such as scripts/run.py.');
  return skillPathError(target.name, target.root_dir, script, problem.reason ?? 'outside');
}

/** The exec engine's refusals of a request (see ScriptRunErrorCode); any other failure is the runtime's own. */
const REFUSALS = new Set([
  'invalid_request',
  'path_outside_skill',
  'path_outside_workspace',
  'not_found',
  'shell_syntax',
  'command_not_allowed',
  'command_denied',
  'interpreter_not_found',
  'sandbox_unavailable',
  'input_refused',
  'spawn_failed',
  'env_refused',
  'runner_busy',
]);

const RUN_FAILED_HINT =
  'This is a failure of the skills runtime on this machine, not of your call: calling again with other arguments will not help. Tell the user what failed (the message names it and what they can do), then go on without the script.';

/** The exec engine's own message names the step and the remedy; a bare system error gets them added. */
function internalMessage(err: Error & { code?: string }): string {
  if (err.code === 'internal_error') return err.message;
  return `The script could not be run because the runtime failed: ${err.message}. Report this to the user; if it names a folder, check that it is theirs and writable.`;
}

function hintForRunError(code: string | undefined, skill: string): string {
  switch (code) {
    case 'not_found':
    case 'path_outside_skill':
      return `Give script and cwd relative to the root of '${skill}' (as the SKILL.md or load receipt names them, no '..'), or a cwd under $WORK_DIR / $OUTPUT_DIR; inputs come from workspace://, skill://<name>/, artifact:// or an allowed host:// path.`;
    case 'input_refused':
      return 'The message says why that input cannot be staged: stage another source (skill://<name>/..., artifact://name, workspace://... where the runner has a workspace, or an allowed host:// path), or run without it.';
    case 'path_outside_workspace':
      return "Keep inputs' to, cwd and outputs.globs inside the run's workspace (out/, work/, inputs/, or $OUTPUT_DIR/..., $WORK_DIR/...), with no '..' or absolute paths.";
    case 'command_not_allowed':
    case 'command_denied':
    case 'shell_syntax':
      return 'Run a single allowed command without pipes or redirections, or run one of the skill\'s scripts instead.';
    case 'env_refused':
      return 'Call run_script again without the env variables named above; a script that needs one can set it itself.';
    case 'sandbox_unavailable':
      // The message ends with what the sandbox backend of this platform says to do (sandbox/registry.ts describeSandbox).
      return 'Do not retry: tell the user the sandbox is required but not available here, and what the message says to do about it.';
    case 'interpreter_not_found':
      return 'Tell the user which interpreter the script needs; it is not installed on this machine.';
    case 'runner_busy':
      return 'Too many scripts are running at once: wait for your earlier runs to finish, then call run_script again (one at a time).';
    case 'spawn_failed':
      return 'Tell the user the program could not be started (the message says why); do not retry with other arguments.';
    default:
      return 'Fix the named field and call run_script again.';
  }
}
