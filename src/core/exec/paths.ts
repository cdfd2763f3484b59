import * as path from 'node:path';
import { ScriptRunError, type ScriptRunErrorCode } from './scriptRunError';
import { isInside } from '../paths/isInside';
import type { SyncSkillsHost } from '../host/skillsHost';
import { checkRelative, resolveInRoot, resolveInRootOn, type PathRefusal } from '../paths/resolveInRoot';

export { isInside };

/** The exec engine's sentence for a refused path (the rule itself is src/core/paths). */
function refusal(reason: PathRefusal, field: string, value: string, base: string, code: ScriptRunErrorCode, real?: string): ScriptRunError {
  const e = sentence(reason, field, value, base, code, real);
  e.path = { field, reason };
  return e;
}

function sentence(reason: PathRefusal, field: string, value: string, base: string, code: ScriptRunErrorCode, real?: string): ScriptRunError {
  switch (reason) {
    case 'nul':
      return new ScriptRunError(code, `${field} "${value.replace(/\0/g, '\\0')}" contains a NUL byte; give a plain path relative to ${base}.`);
    case 'percent-encoded':
      return new ScriptRunError(code, `${field} "${value}" is percent-encoded; give the path as plain text relative to ${base}.`);
    case 'absolute':
    case 'home':
      return new ScriptRunError(code, `${field} "${value}" is absolute; give a path relative to ${base}.`);
    case 'link-outside':
      return new ScriptRunError(code, `${field} "${value}" resolves through a symlink to ${real}, outside ${base}; give a path inside it.`);
    case 'not-found':
    case 'root-missing':
      return new ScriptRunError('not_found', `${field} "${value}" does not exist under ${base}; list the folder and give an existing path.`);
    default:
      return new ScriptRunError(code, `${field} "${value}" leaves ${base}; give a path inside it.`);
  }
}

/**
 * Checks a relative path given by a caller (the model): no NUL, no percent-encoding, not absolute,
 * no `..` that climbs out. Returns the normalized relative path (POSIX separators, no leading `./`; `''` for the base).
 */
export function checkRelativePath(value: string, field: string, code: ScriptRunErrorCode, base: string): string {
  const checked = checkRelative(value, { allowRoot: true });
  if (!checked.ok) throw refusal(checked.reason, field, value, base, code);
  return checked.rel;
}

/**
 * Resolves `rel` under `root` and verifies the real path (symlinks followed) stays under the real root.
 * Throws `not_found` when the target does not exist. `files`: the host `root` is in (default the disk).
 */
export function resolveInside(root: string, rel: string, field: string, code: ScriptRunErrorCode, rootIsReal = false, files?: Pick<SyncSkillsHost, 'realPath'>): string {
  const options = { allowRoot: true, rootIsReal };
  const r = files ? resolveInRootOn(files, root, rel, options) : resolveInRoot(root, rel, options);
  if (!r.ok) throw refusal(r.reason, field, rel, root, code, r.real);
  return r.real ?? path.resolve(r.abs);
}
