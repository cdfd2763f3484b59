import type { ToolErrorShape } from './toolError';
import { toToolError } from './toToolError';

/**
 * The one result of a tool call on every surface and in every layer (the runtime's tools, the catalog's,
 * list_skills, find_skills): the tool's structured result, or its refusal with the one error shape. Hosts keep
 * the whole of it (logs, audit, reports); the model gets `toolResultText` of it; the CLI prints it.
 */
export type ToolResult<T = unknown> = ToolSuccess<T> | ToolFailure;

/** A skill a call acted on: its name, and the digest of the version it saw (for the audit log). */
export interface TouchedSkill {
  name: string;
  digest?: string;
}

/** A call that did what it was asked. */
export interface ToolSuccess<T = unknown> {
  ok: true;
  /** The tool's public name (the runtime's own tools answer with their id, e.g. `run_script`). */
  tool: string;
  result: T;
  /** The skills the call acted on, when the tool says (the runtime's tools do, for their audit lines). */
  skills?: TouchedSkill[];
}

/** A refused call. */
export interface ToolFailure {
  ok: false;
  tool: string;
  error: ToolErrorShape;
}

/** A success of `tool`. */
export function succeeded<T>(tool: string, result: T, skills?: TouchedSkill[]): ToolSuccess<T> {
  return skills ? { ok: true, tool, result, skills } : { ok: true, tool, result };
}

/**
 * Runs a tool body: its value is the success, an expected error (a ToolError, or one of the subsystems'
 * typed errors `toToolError` maps) the failure. Anything else is a bug and is rethrown.
 */
export async function settle<T>(tool: string, body: () => Promise<T>): Promise<ToolResult<T>> {
  try {
    return succeeded(tool, await body());
  } catch (e) {
    const err = toToolError(e, tool);
    if (!err) throw e;
    return { ok: false, tool, error: err.toShape() };
  }
}
