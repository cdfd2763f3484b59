import type * as vscode from 'vscode';
import type { ReadInput } from '../../core/runtime/toolSchemas';
import { RuntimeTool, type ToolDeps } from './runtimeTool';

/** `read_skill_file`: reads a file of a loaded skill, or a saved run artifact. */
export class ReadTool extends RuntimeTool<ReadInput> {
  constructor(deps: ToolDeps) {
    super(deps, 'read');
  }

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<ReadInput>): vscode.PreparedToolInvocation {
    const p = options.input.path;
    if (p?.startsWith('artifact://')) return { invocationMessage: `Reading ${p}…` };
    const skill = this.targetSkill(options.input);
    return { invocationMessage: `Reading ${p} of ${skill}…` };
  }
}
