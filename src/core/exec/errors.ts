/** Why a run was refused before (or instead of) running. A non-zero exit code is not an error. */
export type ScriptRunErrorCode =
  | 'invalid_request'
  | 'path_outside_skill'
  | 'path_outside_workspace'
  | 'not_found'
  | 'shell_syntax'
  | 'command_not_allowed'
  | 'command_denied'
  | 'interpreter_not_found'
  | 'sandbox_unavailable'
  | 'input_refused'
  | 'spawn_failed'
  | 'env_refused';

/** A typed error; `message` names the field and says what to do next. */
export class ScriptRunError extends Error {
  constructor(
    readonly code: ScriptRunErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ScriptRunError';
  }
}
