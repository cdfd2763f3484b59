import { z } from 'zod';
import { EditError } from '../edit/errors';
import { PackError } from '../packs/packErrors';
import { SkillRegistryError } from '../registry/registryErrors';
import { CatalogError } from './catalogErrors';

/** The error half of a tool result: a stable code, a message that says what to do next, and facts. */
export interface ToolFailure {
  ok: false;
  error: { code: string; message: string; details?: Record<string, unknown> };
}

/** Either the tool's result or a failure. */
export type ToolResult<T> = ({ ok: true } & T) | ToolFailure;

/** Maps any error the catalog, registry, edit engine or packs throw to a tool failure; unknown errors are rethrown (bugs). */
export function toFailure(e: unknown): ToolFailure {
  if (e instanceof CatalogError) return { ok: false, error: { code: e.code, message: e.message, details: e.details } };
  if (e instanceof SkillRegistryError) {
    const details: Record<string, unknown> = {};
    if ('ids' in e) details.ids = (e as { ids: string[] }).ids;
    if ('suggestions' in e) details.suggestions = (e as { suggestions: string[] }).suggestions;
    return { ok: false, error: { code: e.code, message: e.message, details } };
  }
  if (e instanceof EditError) return { ok: false, error: { code: e.code === 'STALE_REF' ? 'stale-ref' : e.code.toLowerCase().replace(/_/g, '-'), message: e.message } };
  if (e instanceof PackError) return { ok: false, error: { code: `pack-${e.code.toLowerCase().replace(/_/g, '-')}`, message: e.message, details: { entries: e.entries } } };
  if (e instanceof z.ZodError) {
    const issues = e.issues.map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`);
    return { ok: false, error: { code: 'bad-input', message: `The tool input is invalid: ${issues.join('; ')}. Fix these fields and call again.`, details: { issues } } };
  }
  throw e;
}

/** Runs a tool body and turns expected errors into failures. */
export async function guarded<T>(body: () => Promise<T>): Promise<ToolResult<T>> {
  try {
    return { ok: true, ...(await body()) };
  } catch (e) {
    return toFailure(e);
  }
}
