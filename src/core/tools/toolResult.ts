import type { ToolErrorShape } from './toolError';

/**
 * The one result of a tool call on every surface: the tool's structured result, or its refusal. Hosts keep
 * the whole of it (logs, audit, reports); the model gets {@link toolResultText} of it.
 */
export type ToolResult<T = unknown> = ToolSuccess<T> | ToolFailure;

/** A call that did what it was asked. */
export interface ToolSuccess<T = unknown> {
  ok: true;
  /** The tool's public name (the runtime's own `invoke` answers with its id, e.g. `run_script`). */
  tool: string;
  result: T;
}

/** A refused call. */
export interface ToolFailure {
  ok: false;
  tool: string;
  error: ToolErrorShape;
}
