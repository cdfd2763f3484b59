import * as vscode from 'vscode';
import type { RunScriptInput } from '../../core/runtime/toolSchemas';
import { RuntimeTool, type ToolDeps } from './runtimeTool';
import { sandboxConfirmation } from './sandboxInfo';

/** `run_skill_script`: runs a script (or command) of a loaded skill; always asks the user first. */
export class RunScriptTool extends RuntimeTool<RunScriptInput> {
  constructor(deps: ToolDeps) {
    super(deps, 'run_script');
  }

  async prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<RunScriptInput>): Promise<vscode.PreparedToolInvocation> {
    const i = options.input;
    const skill = this.targetSkill(i);
    const what = i.script ?? i.command ?? '(nothing)';
    if (!vscode.workspace.isTrusted) {
      // Nothing will run; no confirmation needed, the result explains why.
      return { invocationMessage: `Not running ${what} of ${skill}: this workspace is not trusted` };
    }
    // The runner's answer, from the probe its run will use: never a promise the run does not keep.
    const sandbox = sandboxConfirmation(await this.deps.service.sandboxStatus());
    const args = i.args?.length ? i.args.map((a) => `\`${a.replace(/`/g, "'")}\``).join(' ') : '(none)';
    const message = new vscode.MarkdownString(
      [
        `**Skill:** ${skill}`,
        `**${i.script !== undefined ? 'Script' : 'Command'}:** \`${what.replace(/`/g, "'")}\``,
        `**Arguments:** ${args}`,
        ...(i.env && Object.keys(i.env).length ? [`**Environment:** ${Object.keys(i.env).join(', ')}`] : []),
        ...(i.inputs?.length ? [`**Inputs:** ${i.inputs.map((x) => x.from).join(', ')}`] : []),
        `**Sandbox:** ${sandbox.text}`,
      ].join('  \n'),
    );
    return {
      invocationMessage: `Running ${what} of ${skill}…`,
      confirmationMessages: { title: `Run ${what} of skill ${skill}${sandbox.title}?`, message },
    };
  }
}
