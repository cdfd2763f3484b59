/**
 * Typed errors of the edit engine. Each carries a machine-readable `code` and a
 * message that names the file, what went wrong and what to do next, so the tool
 * layer can pass it to the model unchanged.
 */

/** Error codes raised by src/core/edit. */
export type EditErrorCode =
  | 'PATCH_PARSE'
  | 'PATCH_HUNK_FAILED'
  | 'LINE_EDIT_INVALID'
  | 'STALE_REF'
  | 'TARGET_EXISTS'
  | 'UNSAFE_PATH'
  | 'REVISION_NOT_FOUND'
  | 'REVISION_CORRUPT'
  | 'ARCHIVE_NOT_FOUND'
  | 'STORE_BUSY';

/** Base class: every error thrown on purpose by the edit engine. */
export class EditError extends Error {
  constructor(
    readonly code: EditErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'EditError';
  }
}

/** A version ref no longer matches what is on disk (someone edited the file or skill). */
export class StaleRefError extends EditError {
  constructor(
    readonly target: string,
    readonly expectedRef: string,
    readonly currentRef: string | null,
    /** Unified diff from the expected version to the current one, when the expected content is known (revision store). */
    readonly diff?: string,
  ) {
    super(
      'STALE_REF',
      `${target} changed since version ${expectedRef}: it is now ${currentRef ?? 'missing'}. ` +
        'Re-read it (runSkill inspect) to get the current content and version ref, then redo the edit against that.' +
        (diff ? `\nWhat changed since your version:\n${diff}` : ''),
    );
    this.name = 'StaleRefError';
  }
}
