// What VS Code shows before `run_skill_script`: a question only about a run that can happen. The runtime's check of
// the call (checkRun: the runner's own checks before staging, behind the window's trust gate) decides first, as the
// MCP server's does before it asks (src/cli/mcp/mcpHandlers.ts): a run refused anyway (untrusted workspace, no such
// loaded skill, a script missing or outside the skill, a required sandbox missing) gets no question, and its call
// returns the same refusal. Imports nothing of VS Code, so plain mocha tests it (test/core/runtime/runConfirmation.test.ts).
import type { SandboxStatus } from '../../core/exec/sandboxStatus';
import type { ToolResult } from '../../core/tools/toolResult';
import { sandboxConfirmation } from './sandboxInfo';
import type { CheckedScript } from '../../core/runtime/runScriptTool';
import { pluginRunReach } from '../../core/plugins/pluginRuns';

/** What the confirmation asks of the window. */
export interface RunConfirmationContext {
  /** The skill a call without `skill` acts on, for the words of a refusal. */
  targetSkill(input: { skill?: string }): string;
  /** The runner's sandbox status, from the probe its run uses. */
  sandboxStatus(): Promise<SandboxStatus>;
  /** The runtime's decision on the call, made without running it (SkillTools.checkRun in the call's session). */
  checkRun(input: Record<string, unknown>): Promise<ToolResult<CheckedScript>>;
}

/** The invocation message, and the question when there is one (its title and its Markdown lines). */
export interface RunConfirmation {
  invocationMessage: string;
  confirmation?: { title: string; lines: string[] };
}

/** A string input field, or '' for anything else. */
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
// A backtick would end the Markdown code span; written as an escape, so text scanners (ours in test/support too) do not read a template string here.
const tick = (s: string): string => s.replaceAll('\u0060', "'");

/** The confirmation of one script run (a call of the run tool) with `input`. */
export async function runConfirmation(input: Record<string, unknown>, c: RunConfirmationContext): Promise<RunConfirmation> {
  const what = str(input.script) || str(input.command) || '(nothing)';
  const checked = await c.checkRun(input);
  // Nothing will run: no question; the call's result says why, in the same words.
  if (!checked.ok) return { invocationMessage: `Not running ${what} of ${c.targetSkill(input)}: ${checked.error.message}` };
  const skill = checked.result.skill;
  // The runner's answer, from the probe its run will use: never a promise the run does not keep.
  const sandbox = sandboxConfirmation(await c.sandboxStatus());
  const args = Array.isArray(input.args) && input.args.length ? input.args.map((a) => `\`${tick(String(a))}\``).join(' ') : '(none)';
  const env = input.env && typeof input.env === 'object' ? Object.keys(input.env) : [];
  const inputs = Array.isArray(input.inputs) ? input.inputs.map((x: { from?: unknown }) => String(x.from)) : [];
  return {
    invocationMessage: `Running ${what} of ${skill}…`,
    confirmation: {
      title: `Run ${what} of skill ${skill}${sandbox.title}?`,
      lines: [
        `**Skill:** ${skill}`,
        `**${input.script !== undefined ? 'Script' : 'Command'}:** \`${tick(what)}\``,
        `**Arguments:** ${args}`,
        ...(env.length ? [`**Environment:** ${env.join(', ')}`] : []),
        ...(inputs.length ? [`**Inputs:** ${inputs.join(', ')}`] : []),
        `**Sandbox:** ${sandbox.text}`,
        ...(checked.result.plugin ? [`**Plugin folders:** ${pluginRunReach(checked.result.plugin)}`] : []),
      ],
    },
  };
}
