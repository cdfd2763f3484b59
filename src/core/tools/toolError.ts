// The one error type of every tool (the runtime's six, the catalog's two, list_skills): a stable snake_case
// code, a message naming the skill, file or field, a hint saying what to call next, and optional facts.

/**
 * Codes a tool refusal can carry. One spelling: snake_case (the runtime's, which models saw first). Codes of
 * the subsystems underneath (registry, edit engine, packs, file system) are normalised to it by
 * {@link snakeCode}, so `not-found` from the registry and `not_found` from the runtime are one code.
 */
export type ToolErrorCode =
  | 'invalid_input'
  | 'unknown_skill'
  | 'skill_unusable'
  | 'too_many_skills'
  | 'not_loaded'
  | 'no_skill_loaded'
  | 'path_refused'
  | 'not_found'
  | 'unknown_doc'
  | 'invalid_offset'
  | 'no_executor'
  | 'no_artifacts'
  | 'run_refused'
  /** The runtime failed on this machine while preparing or running a script; not the caller's fault. */
  | 'run_failed'
  | 'unknown_session'
  | 'unknown_tool'
  | 'tool_denied'
  | 'ambiguous'
  | 'broken'
  | 'stale_ref'
  | 'invalid_result'
  | 'not_text'
  | 'no_writable_root'
  | 'exists'
  | 'not_archived'
  | 'load_failed'
  | 'untrusted_workspace'
  /** The user declined the confirmation of a call. */
  | 'declined'
  /** The host could not run the tool at all (not ours, or it threw). */
  | 'tool_failed';

/** A refusal as data: what a result, an audit line and every surface carry. */
export interface ToolErrorShape {
  /** A {@link ToolErrorCode}, or a normalised code of a subsystem underneath (e.g. `unsafe_path`, `fs_enoent`). */
  code: string;
  /** What is wrong, naming the skill, the file or the field. */
  message: string;
  /** What to do next (which tool to call, with what). */
  hint: string;
  /** Facts the caller can act on (suggestions, ids, the current ref and diff of a stale edit). */
  details?: Record<string, unknown>;
}

/** Older kebab-case spellings that became other words, not just other separators. */
const RENAMED: Record<string, string> = { 'bad-input': 'invalid_input', 'bad-offset': 'invalid_offset' };

/** A subsystem's code in the tools' one spelling: `not-found` → `not_found`, `STALE_REF` → `stale_ref`. */
export function snakeCode(code: string): string {
  return RENAMED[code] ?? code.toLowerCase().replace(/-/g, '_');
}

/** What to do next when the thrower's message already carries the specifics. */
const DEFAULT_HINTS: Record<string, string> = {
  not_found: 'Use an id or path exactly as runSkill list or inspect (or <available_skills>) returned it.',
  ambiguous: 'Pass one of the canonical ids named in the message.',
  broken: 'Pick another skill, or fix the SKILL.md problems the message names.',
  stale_ref: 'Inspect the file again and redo the change against its current content and versionRef.',
  invalid_result: 'Fix the problems the message names, or pass force: true to write anyway.',
  not_text: 'Edit a text file; binary files cannot be patched.',
  invalid_offset: 'Use an offset from the previous result (nextOffset / next_offset), or start at 0.',
  no_writable_root: 'Create the skill in another scope (workspace or user), or ask the user to open a folder.',
  exists: 'Pick another name, or edit the existing skill instead.',
  not_archived: 'Only an archived skill can be restored; inspect the skill to see its state.',
  invalid_input: "Fix the named field(s) and call again; see the tool's input schema for allowed fields.",
  load_failed: 'Tell the user what failed; the skill stays unloaded.',
};

/** The hint for a code when the thrower gave none. */
export function defaultHint(code: string): string {
  return DEFAULT_HINTS[code] ?? 'Check the input and try again; if it keeps failing, tell the user.';
}

/** A refusal a model can act on: `message` says what is wrong, `hint` what to call next. */
export class ToolError extends Error {
  readonly code: string;
  readonly hint: string;
  readonly details?: Record<string, unknown>;

  constructor(code: ToolErrorCode, message: string, hint?: string, details?: Record<string, unknown>);
  constructor(code: string, message: string, hint?: string, details?: Record<string, unknown>);
  constructor(code: string, message: string, hint?: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'ToolError';
    this.code = snakeCode(code);
    this.hint = hint ?? defaultHint(this.code);
    if (details && Object.keys(details).length) this.details = details;
  }

  /** The error as data. */
  toShape(): ToolErrorShape {
    return { code: this.code, message: this.message, hint: this.hint, ...(this.details ? { details: this.details } : {}) };
  }
}
