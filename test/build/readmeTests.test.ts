// The README's sandbox and security claims name the tests that show them (issue 22.8: "in the words of those
// tests"). Every test file the README names must exist, so a renamed or removed test cannot leave a claim that
// points at nothing.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '../..');

/** Every test file under test/, by its path from the repository root. */
function testFiles(dir = path.join(REPO, 'test')): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...testFiles(p));
    else if (/\.test\.ts$/.test(e.name)) out.push(path.relative(REPO, p));
  }
  return out;
}

describe('README: the tests it names exist', () => {
  it('every `….test.ts` the README names is a test file (by its path, or by its name when given alone)', () => {
    const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
    const files = testFiles();
    const names = new Set(files.map((f) => path.basename(f)));
    // A name, or a path, whose stem has two characters or more (`a.test.ts` and `<topic>.test.ts` are examples and patterns).
    const named = [...new Set([...readme.matchAll(/(?<![\w*>./-])(?:[\w-]+\/)*[\w-]{2,}(?:\.[\w-]+)*\.test\.ts/g)].map((m) => m[0]))];
    assert.ok(named.length >= 20, `the README names ${named.length} test files`);
    const missing = named.filter((n) => (n.includes('/') ? !files.includes(n) : !names.has(n)));
    assert.deepEqual(missing, [], `README.md names test files that do not exist: ${missing.join(', ')}; fix the name or the claim`);
  });
});
