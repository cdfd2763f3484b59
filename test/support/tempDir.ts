import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { removeTree } from '../../src/core/exec/skillSnapshot';

/**
 * Removes a test's temp folder, read-only folders included: a script runner's state holds read-only
 * copies of skills, which a user who is not root cannot remove with a plain `rm -rf`.
 */
export function removeTempDir(dir: string): void {
  // A script runner may still be building its next spare workspace (read-only folders) in the background when a
  // test ends: a removal that meets a folder made meanwhile is tried again, a few times, 50 ms apart.
  for (let attempt = 0; ; attempt++) {
    try {
      removeTree(dir);
      return;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (attempt >= 4 || (code !== 'EACCES' && code !== 'ENOTEMPTY' && code !== 'EPERM')) throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    }
  }
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

/**
 * A writer of files under the folder `base()` answers at call time (tests make a new folder per case): writes `text`
 * at the relative path, making its folders, and returns the absolute path.
 */
export function fileWriter(base: () => string): (rel: string, text: string, mode?: number) => string {
  return (rel, text, mode) => {
    const abs = path.join(base(), rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, text, mode === undefined ? undefined : { mode });
    return abs;
  };
}
