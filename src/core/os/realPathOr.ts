import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The real path of `p` on this machine's disk (links followed), or `path.resolve(p)` when it cannot be had (missing,
 * unreadable): for comparing two paths a user or a manifest gave, where a missing one simply compares as written.
 */
export function realPathOr(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return path.resolve(p);
  }
}
