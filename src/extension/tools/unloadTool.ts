import type * as vscode from 'vscode';
import type { UnloadInput } from '../../core/runtime/toolSchemas';
import { RuntimeTool, type ToolDeps } from './runtimeTool';

/** `unload_skills`: removes skills from the session's context. */
export class UnloadTool extends RuntimeTool<UnloadInput> {
  constructor(deps: ToolDeps) {
    super(deps, 'unload');
  }

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<UnloadInput>): vscode.PreparedToolInvocation {
    const what = options.input.all ? 'every loaded skill' : (options.input.names ?? []).join(', ');
    return { invocationMessage: `Unloading ${what}…` };
  }
}
