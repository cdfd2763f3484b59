import * as path from 'node:path';
import { EditError } from './errors';

/**
 * Normalises a path relative to a skill folder ("SKILL.md", "scripts/run.py") and
 * refuses anything that could escape the folder: absolute paths, drive letters,
 * `..` segments, NUL bytes. Returns the path with forward slashes.
 */
export function normalizeRelativePath(relPath: string, what = 'path'): string {
  const unified = relPath.replace(/\\/g, '/');
  if (unified.length === 0 || unified.includes('\0')) {
    throw new EditError('UNSAFE_PATH', `Invalid ${what} "${relPath}": it must be a non-empty relative path like "SKILL.md" or "references/guide.md".`);
  }
  if (unified.startsWith('/') || /^[a-zA-Z]:/.test(unified)) {
    throw new EditError('UNSAFE_PATH', `Invalid ${what} "${relPath}": absolute paths are not allowed; give the path relative to the skill folder.`);
  }
  const parts = unified.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) {
    throw new EditError('UNSAFE_PATH', `Invalid ${what} "${relPath}": ".." segments are not allowed; the file must stay inside the skill folder.`);
  }
  if (parts.length === 0) {
    throw new EditError('UNSAFE_PATH', `Invalid ${what} "${relPath}": it names the folder itself, not a file inside it.`);
  }
  return parts.join('/');
}

/** Joins a root folder and a checked relative path; the result is guaranteed to be inside `root`. */
export function resolveInside(root: string, relPath: string, what = 'path'): string {
  const rel = normalizeRelativePath(relPath, what);
  const base = path.resolve(root);
  const full = path.resolve(base, ...rel.split('/'));
  if (full !== base && !full.startsWith(base + path.sep)) {
    throw new EditError('UNSAFE_PATH', `Invalid ${what} "${relPath}": it resolves outside ${base}.`);
  }
  return full;
}
