// Issue 22 point 9: removing the pack per-file size limit (the header check, the streaming count, or both)
// was caught by no test: the only bomb was also over the total limit. Each bomb here is under the total
// limit (4 MiB) and over the per-file limit (1 MiB), so only maxFileBytes can refuse it; each part of the
// limit has a test that fails without it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { ExtractSink, extractTar, extractZip, installPack, PackError } from '../../../src/core/packs';
import { buildTar, buildZip } from '../../support/archiveBuilder';
import { listTree, makeTempDir } from '../../support/tempDir';

const LIMITS = { maxFileBytes: 1024 * 1024, maxTotalBytes: 4 * 1024 * 1024, maxEntries: 50 };
const skillMd = `---\nname: ok\ndescription: test skill ok\n---\nBody.\n`;
// A valid skill, then one highly compressible 2 MiB file: over maxFileBytes, well under maxTotalBytes.
const ENTRIES = [
  { name: 'ok/SKILL.md', data: skillMd },
  { name: 'ok/bomb.bin', data: Buffer.alloc(2 * 1024 * 1024) },
];
const overFileLimit = (e: unknown) => e instanceof PackError && e.code === 'LIMIT_EXCEEDED' && /"ok\/bomb\.bin" inflates past the maxFileBytes limit of 1048576 bytes/.test(e.message);

describe('packs: the per-file size limit, under the total limit (issue 22.9)', () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = makeTempDir('pack-file-limit-')));
  afterEach(() => cleanup());
  const write = (name: string, data: Buffer) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, data);
    return p;
  };

  for (const [format, archive] of [
    ['zip', () => buildZip(ENTRIES)],
    ['tar.gz', () => buildTar(ENTRIES, true)],
  ] as const) {
    it(`installPack refuses a ${format} whose one file is over maxFileBytes though the pack is under maxTotalBytes`, async () => {
      const file = write(`bomb.${format}`, archive());
      assert.ok(fs.statSync(file).size < 64 * 1024, 'a small archive on disk');
      const cache = path.join(dir, 'cache');
      await assert.rejects(installPack(file, { cacheDir: cache, limits: LIMITS }), overFileLimit);
      assert.deepEqual(listTree(path.join(cache, 'packs')), []);
    });
  }

  // The header check refuses from what the archive declares, before the file's bytes are inflated: the
  // entry is never written. Without it the streaming count still refuses, but only after writing 1 MiB.
  it('the header check refuses a zip from its central directory before anything is written', async () => {
    const dest = path.join(dir, 'zip-out');
    fs.mkdirSync(dest);
    await assert.rejects(extractZip(write('bomb.zip', buildZip(ENTRIES)), new ExtractSink(dest, LIMITS, 'refuse')), overFileLimit);
    assert.deepEqual(listTree(dest), [], 'nothing was extracted, not even the SKILL.md before the bomb');
  });

  it('the header check refuses a tar entry from its header before its bytes are written', async () => {
    const dest = path.join(dir, 'tar-out');
    fs.mkdirSync(dest);
    await assert.rejects(extractTar(write('bomb.tgz', buildTar(ENTRIES, true)), new ExtractSink(dest, LIMITS, 'refuse')), overFileLimit);
    assert.ok(!fs.existsSync(path.join(dest, 'ok', 'bomb.bin')), 'the bomb was never opened for writing');
  });

  // The streaming count holds when a header understates the size (an extractor that trusts a header, or
  // an entry whose size is unknown until it ends): the sink counts the bytes that actually arrive.
  it('the streaming count refuses an entry whose bytes run past maxFileBytes whatever its header said', async () => {
    const dest = path.join(dir, 'sink-out');
    fs.mkdirSync(dest);
    const sink = new ExtractSink(dest, LIMITS, 'refuse');
    sink.checkDeclaredSize('ok/bomb.bin', 100);
    const chunks = function* () {
      for (let i = 0; i < 32; i++) yield Buffer.alloc(64 * 1024);
    };
    await assert.rejects(sink.file('ok/bomb.bin', Readable.from(chunks()), 0o644), overFileLimit);
    assert.ok(fs.statSync(path.join(dest, 'ok', 'bomb.bin')).size <= LIMITS.maxFileBytes, 'no more than the limit was written');
    assert.ok(sink.report.bytes < LIMITS.maxTotalBytes, 'the total limit was not what refused it');
  });
});
