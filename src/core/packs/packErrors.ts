/** Error codes raised by src/core/packs. */
export type PackErrorCode =
  | 'UNSAFE_ENTRY'
  | 'LINK_ENTRY'
  | 'SPECIAL_ENTRY'
  | 'DUPLICATE_ENTRY'
  | 'LIMIT_EXCEEDED'
  | 'UNSUPPORTED_FORMAT'
  | 'CORRUPT_ARCHIVE'
  | 'DOWNLOAD_FAILED'
  | 'DOWNLOAD_TIMEOUT'
  | 'REDIRECT_REFUSED'
  | 'DIGEST_MISMATCH';

/** A skill pack could not be downloaded or extracted; nothing was left in the pack folder. */
export class PackError extends Error {
  constructor(
    readonly code: PackErrorCode,
    message: string,
    /** Offending archive entries, when the error is about entries. */
    readonly entries: string[] = [],
  ) {
    super(message);
    this.name = 'PackError';
  }
}
