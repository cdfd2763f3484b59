import * as vscode from 'vscode';
import type { RunScriptInput } from '../../core/runtime/toolSchemas';
import { RuntimeTool, type ToolDeps } from './runtimeTool';
import { describeSandbox } from './sandboxInfo';

/** `run_skill_script`: runs a script (or command) of a loaded skill; always asks the user first. */
export class RunScriptTool extends RuntimeTool<RunScriptInput> {
  constructor(deps: ToolDeps) {
    super(deps, 'run_script');
  }

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<RunScriptInput>): vscode.PreparedToolInvocation {
    const i = options.input;
    const skill = this.targetSkill(i);
    const what = i.script ?? i.command ?? '(nothing)';
    if (!vscode.workspace.isTrusted) {
      // Nothing will run; no confirmation needed, the result explains why.
      return { invocationMessage: `Not running ${what} of ${skill}: this workspace is not trusted` };
    }
    const sandbox = describeSandbox(this.deps.service.settings.sandbox);
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
      confirmationMessages: { title: `Run ${what} of skill ${skill}${sandbox.sandboxed ? ' (sandboxed)' : ' (not sandboxed)'}?`, message },
    };
  }
}
