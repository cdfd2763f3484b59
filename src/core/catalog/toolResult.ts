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
  const fsFailure = fileSystemFailure(e);
  if (fsFailure) return fsFailure;
  throw e;
}

/** What to do about a file system refusal, by errno code. */
const FS_NEXT_STEP: Record<string, string> = {
  ENAMETOOLONG: 'The path is too long for the file system: use a shorter file name (each part at most 255 bytes).',
  EISDIR: 'The path names a folder, not a file: give the path of a file inside it (runSkill inspect lists the files).',
  ENOTDIR: 'A part of the path is a file, not a folder: check the path against the file list of runSkill inspect.',
  EACCES: 'The file or its folder is not readable or writable for VS Code: tell the user to check its permissions.',
  EPERM: 'The operating system refused the operation: tell the user to check the permissions of the skill folder.',
  EROFS: 'The skill folder is on a read-only file system: copy the skill to another scope (updateSkill copy) and edit the copy.',
  ENOSPC: 'The disk is full: tell the user to free some space, then try again.',
  EEXIST: 'Something already exists at that path: pick another name or path.',
  ENOTEMPTY: 'A folder is in the way at that path: pick another name or path.',
  EMFILE: 'Too many files are open right now: try again in a moment.',
};

/** A Node file system error (it has an errno code and a syscall) as a failure naming the path and what to do. */
function fileSystemFailure(e: unknown): ToolFailure | undefined {
  const err = e as NodeJS.ErrnoException;
  if (!(e instanceof Error) || typeof err.code !== 'string' || typeof err.syscall !== 'string') return undefined;
  const where = err.path ? ` on ${err.path}` : '';
  const next = FS_NEXT_STEP[err.code] ?? 'Tell the user what failed; nothing else was changed.';
  return { ok: false, error: { code: `fs-${err.code.toLowerCase()}`, message: `The file system refused ${err.syscall}${where} (${err.code}). ${next}`, details: { errno: err.code, syscall: err.syscall } } };
}

/** Runs a tool body and turns expected errors into failures. */
export async function guarded<T>(body: () => Promise<T>): Promise<ToolResult<T>> {
  try {
    return { ok: true, ...(await body()) };
  } catch (e) {
    return toFailure(e);
  }
}
