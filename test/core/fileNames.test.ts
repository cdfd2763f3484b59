// Files are named for the one thing they hold, so no two files of src/ and server/ share a name (barrels, `index.ts`,
// excepted): a search for a name then finds one file, and a reader never confuses, say, the catalog's tool inputs
// with the runtime's.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sourceFiles, SCRIPT_FILE } from '../support/sourceFiles';

const ROOT = path.resolve(__dirname, '../..');

/** Names held by more than one file, with the files. */
export function sharedNames(files: readonly string[]): string[] {
  const byName = new Map<string, string[]>();
  for (const f of files) {
    const name = path.basename(f).replace(/\.(ts|mts|cts|js|cjs|mjs)$/, '');
    if (name === 'index') continue;
    byName.set(name, [...(byName.get(name) ?? []), f]);
  }
  return [...byName].filter(([, fs]) => fs.length > 1).map(([n, fs]) => `${n}: ${fs.join(', ')}`);
}

describe('file names: no two files of src/ and server/ share a name', () => {
  it('finds a shared name (and ignores barrels)', () => {
    assert.deepEqual(sharedNames(['src/a/types.ts', 'src/b/types.ts', 'src/a/index.ts', 'src/b/index.ts', 'src/c/one.ts']), ['types: src/a/types.ts, src/b/types.ts']);
  });

  it('none does', () => {
    const files = [...sourceFiles(path.join(ROOT, 'src'), SCRIPT_FILE), ...sourceFiles(path.join(ROOT, 'server'), SCRIPT_FILE)].map((f) => path.relative(ROOT, f));
    assert.ok(files.length > 100, `the tree was read (${files.length} files)`);
    assert.deepEqual(sharedNames(files), []);
  });
});
