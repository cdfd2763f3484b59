import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { removeTree } from '../../src/core/exec/skillSnapshot';

/**
 * Removes a test's temp folder, read-only folders included: a script runner's state holds read-only
 * copies of skills, which a user who is not root cannot remove with a plain `rm -rf`.
 */
export function removeTempDir(dir: string): void {
  removeTree(dir);
}

/** Creates a fresh temp folder for a test; call the returned cleanup in `after`/`afterEach`. */
export function makeTempDir(prefix = 'skills-test-'): { dir: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => removeTempDir(dir) };
}

/** Lists every file and folder under `root` (relative paths, sorted), for "nothing else was written" checks. */
export function listTree(root: string): string[] {
  const out: string[] = [];
  const walk = (abs: string, rel: string): void => {
    for (const e of fs.readdirSync(abs, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      out.push(e.isDirectory() ? `${r}/` : r);
      if (e.isDirectory()) walk(path.join(abs, e.name), r);
    }
  };
  if (fs.existsSync(root)) walk(root, '');
  return out.sort();
}
