import type * as vscode from 'vscode';
import type { ListDocsInput } from '../../core/runtime/toolSchemas';
import { RuntimeTool, type ToolDeps } from './runtimeTool';

/** `list_skill_docs`: lists a skill's docs and which are selected. */
export class ListDocsTool extends RuntimeTool<ListDocsInput> {
  constructor(deps: ToolDeps) {
    super(deps, 'list_docs');
  }

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<ListDocsInput>): vscode.PreparedToolInvocation {
    const skill = this.targetSkill(options.input);
    return { invocationMessage: `Listing the docs of ${skill}…` };
  }
}
