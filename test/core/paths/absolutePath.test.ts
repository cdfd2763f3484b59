import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { absolutePath, childPath } from '../../../src/core/paths/absolutePath';
import { seededRandom } from '../../support/seededRandom';

describe('absolutePath and childPath (path.resolve and path.join without their cost on normal paths)', () => {
  it('answer as path.resolve on odd and normal paths', () => {
    const cases = ['/', '/a', '/a/', '/a//b', '/a/./b', '/a/../b', '/a/..', '/a/.', '/a/.b', '/a/..b', '/a/b.', '/.hidden/x', '/a/...', 'rel/x', './x', '', '/a/b/c/plugin.json'];
    for (const c of cases) assert.equal(absolutePath(c), path.resolve(c), JSON.stringify(c));
    for (const [d, n] of [['/', 'skills'], ['/a', 'skills'], ['/a/b', '.claude-plugin']] as const) assert.equal(childPath(absolutePath(d), n), path.join(d, n));
  });

  it('agree with path.resolve on random paths of separators, dots and letters', () => {
    const rnd = seededRandom(20261126);
    const parts = ['/', '/', '.', '..', 'a', 'b.', '.c', '...', '//'];
    for (let i = 0; i < 5000; i++) {
      let p = rnd() < 0.9 ? '/' : '';
      const n = Math.floor(rnd() * 7);
      for (let k = 0; k < n; k++) p += parts[Math.floor(rnd() * parts.length)];
      assert.equal(absolutePath(p), path.resolve(p), JSON.stringify(p));
    }
  });
});
