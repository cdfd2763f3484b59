import { isInside } from '../paths/isInside';
import type { PathRefusal } from '../paths/resolveInRoot';

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
  /** The runner's cap on concurrent runs and its queue are full (or the run was cancelled while queued). */
  | 'runner_busy'
  /** The runtime itself failed (its state folder could not be written, ...): not the request's fault. */
  | 'internal_error'
  | 'env_refused';

/**
 * What was wrong with a path of the request, as data, so a caller words it in its own terms without reading the
 * message: the field (`script`, ...), and the path rule's reason, or what the path is when it is not a file.
 */
export interface RequestPathProblem {
  field: string;
  reason?: PathRefusal;
  kind?: 'directory' | 'other';
}

/** A typed error; `message` names the field and says what to do next. */
export class ScriptRunError extends Error {
  constructor(
    readonly code: ScriptRunErrorCode,
    message: string,
    public path?: RequestPathProblem,
  ) {
    super(message);
    this.name = 'ScriptRunError';
  }
}

/** What a user can do about a file system failure while working in the runtime's own folder `dir`. */
function remedy(err: NodeJS.ErrnoException, dir: string): string {
  const elsewhere = err.path !== undefined && !isInside(dir, err.path) ? err.path : undefined;
  switch (err.code) {
    case 'EACCES':
    case 'EPERM':
      // A file of the skill itself that this user cannot read (copied into the run's read-only copy).
      if (elsewhere) return `You cannot read ${elsewhere}: make it readable to you, or move it out of the skill.`;
      return `Check that ${dir} belongs to you and that you can write it (a folder made by another user, or with sudo, needs chown), or remove it: it holds only copies of skills and old run folders.`;
    case 'ENOSPC':
    case 'EDQUOT':
      return `The disk (or your quota) is full: free space where ${dir} lives, then run the script again.`;
    case 'EROFS':
      return `${dir} is on a read-only file system: give the runtime a state folder on a writable one.`;
    default:
      return `Check that ${dir} exists, is writable and is on a local disk, then run the script again.`;
  }
}

/**
 * Runs one step of preparing a run (`what`, e.g. "making the read-only copy of skill \"pdf\"") in the
 * runtime's folder `dir`. A file system failure becomes an `internal_error` that names the step, the
 * folder, the system's error and what the user can do; refusals (ScriptRunError) pass through.
 */
export function preparing<T>(what: string, dir: string, step: () => T): T {
  try {
    return step();
  } catch (e) {
    if (e instanceof ScriptRunError) throw e;
    const err = e as NodeJS.ErrnoException;
    throw new ScriptRunError('internal_error', `${what} in ${dir} failed: ${err.message}. ${remedy(err, dir)}`);
  }
}
