// The one "real path, or the path as written when there is none" of the core: a plugin's root for its MCP servers
// (PLUGIN_ROOT) and the CLI's "is this the same skill folder" both ask it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { realPathOr } from '../../../src/core/os/realPathOr';
import { makeTempDir } from '../../support/tempDir';

describe('realPathOr', () => {
  it('follows links to the real folder, and falls back to the resolved path for a missing one', () => {
    const tmp = makeTempDir('real-path-or-');
    try {
      const real = path.join(tmp.dir, 'real');
      fs.mkdirSync(real);
      fs.symlinkSync(real, path.join(tmp.dir, 'link'));
      assert.equal(realPathOr(path.join(tmp.dir, 'link')), fs.realpathSync(real));
      assert.equal(realPathOr(path.join(tmp.dir, 'link', '..', 'missing')), path.join(tmp.dir, 'missing'));
      assert.equal(realPathOr('relative/missing'), path.resolve('relative/missing'));
    } finally {
      tmp.cleanup();
    }
  });
});
