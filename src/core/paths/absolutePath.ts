import * as path from 'node:path';

/**
 * `path.resolve(p)`, without its character-by-character normalisation when `p` is already an absolute POSIX path in
 * normal form (no `.` or `..` segment, no doubled or trailing separator): discovery resolves hundreds of plugin
 * and root paths that are. Elsewhere (Windows, relative paths, anything odd) it is `path.resolve`.
 */
export function absolutePath(p: string): string {
  return path.sep === '/' && isNormalAbsolute(p) ? p : path.resolve(p);
}

/** `path.join(dir, rel)` for a `dir` from {@link absolutePath} and a `rel` in normal form (plain segments joined by `/`, none `.` or `..`). */
export function childPath(dir: string, rel: string): string {
  return dir.length > 1 && dir.charCodeAt(dir.length - 1) !== 47 && path.sep === '/' ? `${dir}/${rel}` : path.join(dir, rel);
}

function isNormalAbsolute(p: string): boolean {
  if (p.charCodeAt(0) !== 47 || p.length < 2 || p.charCodeAt(p.length - 1) === 47 || p.includes('//')) return false;
  // A `.` right after a separator starts a `.` or `..` segment only when a separator or the end follows.
  for (let i = p.indexOf('/.'); i >= 0; i = p.indexOf('/.', i + 1)) {
    const next = p.charCodeAt(i + 2);
    if (Number.isNaN(next) || next === 47) return false;
    if (next === 46 && (i + 3 === p.length || p.charCodeAt(i + 3) === 47)) return false;
  }
  return !p.includes('\0');
}
