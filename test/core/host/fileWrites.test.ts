// The writing half of a host, one contract for both: the Node host on a real temp folder and the in-memory host.
// What the core's state (sessions, audit log, revisions, overlays, archive) relies on is checked on each.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createMemoryHost, createNodeHost, type SyncWritableHost } from '../../../src/core/host';
import { textOfRead } from '../../../src/core/host/skillsHost';
import { makeTempDir } from '../../support/tempDir';

const text = (host: SyncWritableHost, file: string): string | undefined => textOfRead(host.readFile(file));

for (const which of ['node', 'memory'] as const) {
  describe(`FileWrites: ${which} host`, () => {
    let tmp: ReturnType<typeof makeTempDir> | undefined;
    let host: SyncWritableHost;
    let base: string;
    beforeEach(async () => {
      if (which === 'node') {
        tmp = makeTempDir('file-writes-');
        base = tmp.dir;
        host = createNodeHost();
      } else {
        base = path.resolve('/mem/base');
        host = createMemoryHost();
      }
    });
    afterEach(async () => {
      tmp?.cleanup();
      tmp = undefined;
    });

    it('writes a whole file, making its folders, and replaces it whole', async () => {
      const file = path.join(base, 'a', 'b', 'c.json');
      await host.writeFile(file, '{"v":1}\n');
      assert.equal(text(host, file), '{"v":1}\n');
      await host.writeFile(file, new TextEncoder().encode('{"v":2}\n'));
      assert.equal(text(host, file), '{"v":2}\n');
      assert.deepEqual((host.readDirectory(path.join(base, 'a', 'b')) ?? []).map((e) => e.name), ['c.json'], 'no temp file left beside it');
    });

    it('appends, creating the file and its folder, durably when asked', async () => {
      const file = path.join(base, 'logs', 'audit.jsonl');
      await host.appendFile(file, 'one\n');
      await host.appendFile(file, new TextEncoder().encode('two\n'), { durable: true });
      assert.equal(text(host, file), 'one\ntwo\n');
      assert.equal(host.stat(file)?.size, 8);
    });

    it('renames files and folders, and says ENOENT for a missing source', async () => {
      await host.writeFile(path.join(base, 'src', 'x', 'f.txt'), 'f');
      await host.rename(path.join(base, 'src'), path.join(base, 'dst'));
      assert.equal(text(host, path.join(base, 'dst', 'x', 'f.txt')), 'f');
      assert.equal(host.kind(path.join(base, 'src')), undefined);
      await host.writeFile(path.join(base, 'g.txt'), 'g');
      await host.rename(path.join(base, 'g.txt'), path.join(base, 'dst', 'x', 'f.txt'));
      assert.equal(text(host, path.join(base, 'dst', 'x', 'f.txt')), 'g', 'a file at the target is replaced');
      await assert.rejects(Promise.resolve().then(() => host.rename(path.join(base, 'nothing'), path.join(base, 'other'))), (e: NodeJS.ErrnoException) => e.code === 'ENOENT');
    });

    it('removes a folder with everything in it, and nothing without complaint', async () => {
      await host.writeFile(path.join(base, 'tree', 'a', 'b.txt'), 'b');
      await host.remove(path.join(base, 'tree'));
      assert.equal(host.kind(path.join(base, 'tree')), undefined);
      await host.remove(path.join(base, 'tree'));
      await host.mkdir(path.join(base, 'made', 'deep'));
      await host.mkdir(path.join(base, 'made', 'deep'));
      assert.equal(host.kind(path.join(base, 'made', 'deep')), 'directory');
    });

    it('truncates a file to a size', async () => {
      const file = path.join(base, 'log');
      await host.writeFile(file, 'complete\ntorn');
      await host.truncate(file, 9);
      assert.equal(text(host, file), 'complete\n');
    });

    it('gives a lock to one holder at a time, and frees it when the holder throws', async () => {
      const lock = path.join(base, 'store.lock');
      await host.mkdir(base);
      let inside = 0;
      let most = 0;
      const hold = (): Promise<void> =>
        host.withLock(lock, async () => {
          inside++;
          most = Math.max(most, inside);
          await new Promise((r) => setTimeout(r, 5));
          inside--;
        });
      await Promise.all([hold(), hold(), hold(), hold()]);
      assert.equal(most, 1);
      await assert.rejects(host.withLock(lock, async () => { throw new Error('holder failed'); }), /holder failed/);
      assert.equal(await host.withLock(lock, async () => 'free again'), 'free again');
    });
  });
}

describe('FileWrites: node host', () => {
  it('keeps the mode of a file it replaces', async () => {
    const tmp = makeTempDir('file-writes-mode-');
    try {
      const host = createNodeHost();
      const file = path.join(tmp.dir, 'run.sh');
      await host.writeFile(file, '#!/bin/sh\n', { mode: 0o755 });
      assert.equal(fs.statSync(file).mode & 0o777, 0o755);
      await host.writeFile(file, '#!/bin/sh\necho hi\n', { mode: 0o600 });
      assert.equal(fs.statSync(file).mode & 0o777, 0o755);
    } finally {
      tmp.cleanup();
    }
  });
});
