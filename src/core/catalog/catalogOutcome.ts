import type { ToolErrorShape } from '../tools/toolError';
import { toToolError } from '../tools/toToolError';

/** The error half of a catalog outcome: the tools' one error shape. */
export interface CatalogFailure {
  ok: false;
  error: ToolErrorShape;
}

/**
 * What the catalog's functions return: the result's fields flat beside `ok: true` (what the CLI prints), or
 * a failure. The tool descriptors turn it into the one `ToolResult` (src/core/tools).
 */
export type CatalogOutcome<T> = ({ ok: true } & T) | CatalogFailure;

/** Maps any error the catalog, registry, edit engine or packs throw to a failure; unknown errors are rethrown (bugs). */
export function toFailure(e: unknown, tool: string): CatalogFailure {
  const err = toToolError(e, tool);
  if (!err) throw e;
  return { ok: false, error: err.toShape() };
}

/** Runs a tool body and turns expected errors into failures. */
export async function guarded<T>(tool: string, body: () => Promise<T>): Promise<CatalogOutcome<T>> {
  try {
    return { ok: true, ...(await body()) };
  } catch (e) {
    return toFailure(e, tool);
  }
}
