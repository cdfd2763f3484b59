import type * as vscode from 'vscode';
import type { LoadInput } from '../../core/runtime/toolSchemas';
import { RuntimeTool, type ToolDeps } from './runtimeTool';

/** `load_skills`: puts skills' SKILL.md instructions into the session's context. */
export class LoadTool extends RuntimeTool<LoadInput> {
  constructor(deps: ToolDeps) {
    super(deps, 'load');
  }

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<LoadInput>): vscode.PreparedToolInvocation {
    const names = (options.input.names ?? []).join(', ');
    return { invocationMessage: `Loading ${names}…` };
  }
}
