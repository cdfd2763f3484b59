/**
 * A lock shared by processes (or by holders in one process) was held past the wait's timeout: the store is busy.
 * The message names the lock and its holder; the caller tries again later. Thrown by every host's `withLock`.
 */
export class StoreBusyError extends Error {
  readonly code = 'STORE_BUSY' as const;

  constructor(message: string) {
    super(message);
    this.name = 'StoreBusyError';
  }
}
