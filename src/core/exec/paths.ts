import * as fs from 'node:fs';
import * as path from 'node:path';
import { ScriptRunError, type ScriptRunErrorCode } from './errors';
import { isInside } from '../paths/isInside';

export { isInside };

/**
 * Checks a relative path given by a caller (the model): no NUL, no percent-encoding, not absolute,
 * no `..` that climbs out. Returns the normalized relative path (POSIX separators, no leading `./`).
 */
export function checkRelativePath(value: string, field: string, code: ScriptRunErrorCode, base: string): string {
  if (value.includes('\0')) throw new ScriptRunError(code, `${field} "${value.replace(/\0/g, '\\0')}" contains a NUL byte; give a plain path relative to ${base}.`);
  if (/%[0-9a-fA-F]{2}/.test(value)) {
    throw new ScriptRunError(code, `${field} "${value}" is percent-encoded; give the path as plain text relative to ${base}.`);
  }
  if (path.isAbsolute(value) || /^[a-zA-Z]:[\\/]/.test(value) || value.startsWith('\\')) {
    throw new ScriptRunError(code, `${field} "${value}" is absolute; give a path relative to ${base}.`);
  }
  const normalized = path.posix.normalize(value.replace(/\\/g, '/'));
  if (normalized === '..' || normalized.startsWith('../')) {
    throw new ScriptRunError(code, `${field} "${value}" leaves ${base}; give a path inside it.`);
  }
  return normalized === '.' ? '' : normalized.replace(/\/$/, '');
}

/**
 * Resolves `rel` under `root` and verifies the real path (symlinks followed) stays under the real root.
 * Throws `not_found` when the target does not exist.
 */
export function resolveInside(root: string, rel: string, field: string, code: ScriptRunErrorCode, rootIsReal = false): string {
  const clean = checkRelativePath(rel, field, code, root);
  // realpath(3) in one call; fs.realpathSync walks the path in JS with an lstat per component.
  const realRoot = rootIsReal ? root : fs.realpathSync.native(root);
  const target = path.join(realRoot, clean);
  let real: string;
  try {
    real = fs.realpathSync.native(target);
  } catch {
    throw new ScriptRunError('not_found', `${field} "${rel}" does not exist under ${root}; list the folder and give an existing path.`);
  }
  if (!isInside(realRoot, real)) {
    throw new ScriptRunError(code, `${field} "${rel}" resolves through a symlink to ${real}, outside ${root}; give a path inside it.`);
  }
  return real;
}
