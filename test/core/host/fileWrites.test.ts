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

describe('FileWrites: memory host, beyond the shared contract', () => {
  it('a write refused because a file is in the way leaves no folder behind, and stays refused', () => {
    const host = createMemoryHost({ '/s/a/SKILL.md': 'x' });
    for (let attempt = 0; attempt < 2; attempt++) {
      assert.throws(() => host.writeFile('/s/a/SKILL.md/x/y', 'z'), (e: NodeJS.ErrnoException) => e.code === 'ENOTDIR');
      assert.equal(host.kind('/s/a/SKILL.md/x'), undefined);
      assert.equal(host.kind('/s/a/SKILL.md'), 'file');
    }
    assert.throws(() => host.mkdir('/s/a/SKILL.md/deep/er'), (e: NodeJS.ErrnoException) => e.code === 'ENOTDIR');
    assert.equal(host.kind('/s/a/SKILL.md/deep'), undefined);
  });

  it('appends in place: many appends give the whole log, and a read taken earlier keeps what it was given', () => {
    const host = createMemoryHost();
    const line = 'x'.repeat(499) + '\n';
    host.appendFile('/log/audit.jsonl', line);
    const early = host.readFile('/log/audit.jsonl')!.bytes;
    for (let i = 1; i < 5000; i++) host.appendFile('/log/audit.jsonl', line);
    assert.equal(new TextDecoder().decode(early), line, 'an earlier read is not changed by later appends');
    const all = host.readFile('/log/audit.jsonl', { maxBytes: 10 * 1024 * 1024 })!;
    assert.equal(all.size, 5000 * 500);
    assert.equal(new TextDecoder().decode(all.bytes), line.repeat(5000));
    host.truncate('/log/audit.jsonl', 500);
    host.appendFile('/log/audit.jsonl', 'tail\n');
    assert.equal(new TextDecoder().decode(host.readFile('/log/audit.jsonl')!.bytes), `${line}tail\n`);
  });

  it('gives a folder it makes the current time as its mtime, so a sweep does not take a new empty folder for an old one', () => {
    const host = createMemoryHost();
    const before = Date.now();
    host.mkdir('/state/.x.tmp-1-abcd');
    assert.ok(host.stat('/state/.x.tmp-1-abcd', { folders: true })!.mtimeMs >= before);
  });
});
