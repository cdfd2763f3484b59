// Any error a tool body throws, as the one ToolError: the typed errors of the registry, the edit engine,
// the packs, zod and the file system are mapped here, once, for every tool.
import { z } from 'zod';
import { EditError } from '../edit/editErrors';
import { StoreBusyError } from '../host/storeBusyError';
import { PackError } from '../packs/packErrors';
import { SkillRegistryError } from '../registry/registryErrors';
import { ToolError } from './toolError';
import { inputError } from './zodProblems';

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

/**
 * The ToolError for an expected failure, or undefined for anything else (a bug, which the caller reports as
 * such). `tool` names the tool in input errors.
 */
export function toToolError(e: unknown, tool: string): ToolError | undefined {
  if (e instanceof ToolError) return e;
  if (e instanceof SkillRegistryError) {
    const details: Record<string, unknown> = {};
    if ('ids' in e) details.ids = (e as { ids: string[] }).ids;
    if ('suggestions' in e) details.suggestions = (e as { suggestions: string[] }).suggestions;
    return new ToolError(e.code, e.message, undefined, details);
  }
  if (e instanceof EditError || e instanceof StoreBusyError) return new ToolError(e.code, e.message);
  if (e instanceof PackError) return new ToolError(`pack_${e.code}`, e.message, 'Tell the user which pack entry is refused and why; nothing was mounted from it.', { entries: e.entries });
  if (e instanceof z.ZodError) return inputError(tool, e);
  return fileSystemError(e);
}

/** A Node file system error (it has an errno code and a syscall) as an error naming the path and what to do. */
function fileSystemError(e: unknown): ToolError | undefined {
  const err = e as NodeJS.ErrnoException;
  if (!(e instanceof Error) || typeof err.code !== 'string' || typeof err.syscall !== 'string') return undefined;
  const where = err.path ? ` on ${err.path}` : '';
  const next = FS_NEXT_STEP[err.code] ?? 'Tell the user what failed; nothing else was changed.';
  return new ToolError(`fs_${err.code}`, `The file system refused ${err.syscall}${where} (${err.code}). ${next}`, next, { errno: err.code, syscall: err.syscall });
}
