import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { EditError } from './errors';
import { isInside } from '../paths/isInside';

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


/**
 * {@link resolveInside}, plus proof that symbolic links do not lead out: the real path of the target (or, when it
 * does not exist yet, of its deepest existing parent) must lie inside the real path of `root`. So a skill whose
 * `references` is a link to `/etc`, or whose `notes.md` links to `~/.ssh/id_rsa`, can neither be read nor written
 * through. The root itself may be a link (a symlinked skill folder): what counts is what lies inside its target.
 */
export async function resolveInsideReal(root: string, relPath: string, what = 'path'): Promise<string> {
  const full = resolveInside(root, relPath, what);
  const base = path.resolve(root);
  const realRoot = await fs.realpath(base).catch(() => base);
  for (let probe = full; ; probe = path.dirname(probe)) {
    let real: string;
    try {
      real = await fs.realpath(probe);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // Not there (yet): a new file, or a dangling link; what matters is where its existing parent really is.
      if ((code === 'ENOENT' || code === 'ENOTDIR') && probe !== base && probe.length > base.length) continue;
      return full;
    }
    if (!isInside(realRoot, real)) {
      const link = path.relative(base, probe).split(path.sep).join('/') || '.';
      throw new EditError(
        'UNSAFE_PATH',
        `Invalid ${what} "${relPath}": "${link}" is a symbolic link to ${real}, outside the skill folder ${base}. Use a file that really lies inside the skill folder.`,
      );
    }
    return full;
  }
}
