import * as path from 'node:path';

/**
 * True when `child` is `parent` or lies below it (both absolute). `..` and `../x` climb out; a name that
 * merely starts with two dots (`..notes.md`) does not.
 */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}
