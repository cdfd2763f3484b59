import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The file-system path of a `file:` URI, or undefined for other schemes or malformed URIs. */
export function uriToPath(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return path.normalize(fileURLToPath(uri));
  } catch {
    return undefined;
  }
}

/** A `file:` URI for an absolute path. */
export function pathToUri(p: string): string {
  return pathToFileURL(p).href;
}

/** True when `child` is `parent` or lies below it: the core's one rule (`..notes.md` is inside). */
export { isInside } from '../src/core/paths/isInside';

/** Relative path with forward slashes, as written in a SKILL.md link. */
export function toPosixRelative(from: string, to: string): string {
  return path.relative(from, to).split(path.sep).join('/');
}
