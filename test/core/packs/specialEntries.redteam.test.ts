// Red team (issue 11, point 6): tar entries that are not files, folders or links. Held when tried: a
// character device, a block device and a FIFO are each refused (SPECIAL_ENTRY) with nothing extracted, in a
// plain and a gzipped tar, and so is a symlink entry hidden in a zip under a harmless-looking name.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { installPack, PackError } from '../../../src/core/packs';
import { buildTar, buildZip } from '../../support/archiveBuilder';
import { listTree, makeTempDir } from '../../support/tempDir';

const skillMd = '---\nname: ok\ndescription: test skill ok\n---\nBody.\n';

describe('packs: special entries (red team)', () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => {
    ({ dir, cleanup } = makeTempDir());
  });
  afterEach(() => cleanup());

  for (const [type, what] of [['3', 'character device'], ['4', 'block device'], ['6', 'FIFO']] as const) {
    for (const gzip of [false, true]) {
      it(`refuses a ${what} entry (${gzip ? 'tar.gz' : 'tar'}) and extracts nothing`, async () => {
        const archive = path.join(dir, gzip ? 'p.tar.gz' : 'p.tar');
        // The builder's type lists the kinds the suite used so far; it writes the type byte as given.
        fs.writeFileSync(archive, buildTar([{ name: 'ok/SKILL.md', data: skillMd }, { name: 'ok/scripts/dev', type: type as '0' }], gzip));
        const cache = path.join(dir, 'cache');
        await assert.rejects(installPack(archive, { cacheDir: cache }), (e: unknown) => e instanceof PackError && e.code === 'SPECIAL_ENTRY' && e.message.includes('ok/scripts/dev'));
        assert.deepEqual(listTree(path.join(cache, 'packs')), [], 'something was left extracted');
      });
    }
  }

  it('refuses a zip symlink entry named like a document, whatever it points at', async () => {
    const archive = path.join(dir, 'p.zip');
    fs.writeFileSync(archive, buildZip([{ name: 'ok/SKILL.md', data: skillMd }, { name: 'ok/references/guide.md', data: '../../../../home/user/.ssh/id_rsa', mode: 0o120644 }]));
    const cache = path.join(dir, 'cache');
    await assert.rejects(installPack(archive, { cacheDir: cache }), (e: unknown) => e instanceof PackError && e.code === 'LINK_ENTRY');
    assert.deepEqual(listTree(path.join(cache, 'packs')), []);
  });
});
