// The window's trust gate in front of the script runner: no script runs, and no run passes its check, while the
// workspace is not trusted (VS Code Restricted Mode). It imports nothing of VS Code (the window passes its trust
// in), so plain mocha tests it on a real core (test/core/runtime/runConfirmation.test.ts).
import { guardedExecutor } from '../../core/runtime/guardedExecutor';
import type { ScriptExecutor } from '../../core/runtime/runtimeTypes';
import { ToolError } from '../../core/tools/toolError';

/** Why a script may not run in an untrusted workspace, worded for the model and the user. */
export const UNTRUSTED_RUN = new ToolError(
  'run_refused',
  'Skill scripts do not run while this workspace is not trusted (VS Code Restricted Mode).',
  'Tell the user to trust this folder (command "Workspaces: Manage Workspace Trust") if they want the script to run; meanwhile show them the command so they can run it themselves.',
);

/**
 * The executor of a window whose trust `trusted()` tells: asked per run and per check, so granting trust takes
 * effect at once and revoking it can never be raced, and a run refused for trust is refused by its check too.
 */
export function trustGate(trusted: () => boolean): (runner: ScriptExecutor) => ScriptExecutor {
  return (runner) =>
    guardedExecutor(runner, (request) => {
      if (!trusted()) throw UNTRUSTED_RUN;
      return request;
    });
}
