/** Stable codes of the catalog's own errors (registry and edit errors keep their own codes). */
export type CatalogErrorCode =
  | 'not-found'
  | 'ambiguous'
  | 'broken'
  | 'stale-ref'
  | 'invalid-result'
  | 'not-text'
  | 'bad-offset'
  | 'no-writable-root'
  | 'exists'
  | 'not-archived'
  | 'bad-input'
  | 'load-failed';

/** An error of the catalog or its tools; the message names the skill, the field and what to do next. */
export class CatalogError extends Error {
  constructor(
    readonly code: CatalogErrorCode,
    message: string,
    /** Structured facts for the tool result (e.g. the current ref and the diff of a stale edit). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'CatalogError';
  }
}
