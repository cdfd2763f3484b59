import type * as vscode from 'vscode';
import type { SelectDocsInput } from '../../core/runtime/toolSchemas';
import { RuntimeTool, type ToolDeps } from './runtimeTool';

/** `select_skill_docs`: chooses which docs of a loaded skill are in the context. */
export class SelectDocsTool extends RuntimeTool<SelectDocsInput> {
  constructor(deps: ToolDeps) {
    super(deps, 'select_docs');
  }

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<SelectDocsInput>): vscode.PreparedToolInvocation {
    const skill = this.targetSkill(options.input);
    const i = options.input;
    const what = i.mode === 'clear' ? 'Clearing the doc selection' : i.include_all_docs ? 'Selecting every doc' : `Selecting ${(i.docs ?? []).join(', ') || 'docs'}`;
    return { invocationMessage: `${what} of ${skill}…` };
  }
}
