import type { ZodError } from 'zod';

/** Why a skill tool refused. Stable strings: hosts and tests match on them. */
export type SkillToolErrorCode =
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
  | 'tool_denied';

/** A refusal a model can act on: `message` says what is wrong, `hint` what to call next. */
export class SkillToolError extends Error {
  constructor(
    readonly code: SkillToolErrorCode,
    message: string,
    readonly hint: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'SkillToolError';
  }

  /** The error as a structured tool result. */
  toResult(): { error: { code: SkillToolErrorCode; message: string; hint: string; details?: Record<string, unknown> } } {
    return { error: { code: this.code, message: this.message, hint: this.hint, ...(this.details ? { details: this.details } : {}) } };
  }
}

/** Turns a zod failure on tool input into an error naming each bad field. */
export function inputError(tool: string, error: ZodError): SkillToolError {
  const problems = error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(input)'}: ${i.message}`);
  return new SkillToolError(
    'invalid_input',
    `Invalid input for ${tool}: ${problems.join('; ')}`,
    `Fix the named field(s) and call ${tool} again; see the tool's input schema for allowed fields.`,
    { problems },
  );
}
