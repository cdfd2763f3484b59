import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createDirAtomic, EditError, isTempName, sweepTempFiles, writeFileAtomic } from '../../../src/core/edit';
import { listTree, makeTempDir } from '../../support/tempDir';

describe('edit/atomicWrite', () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = makeTempDir()));
  afterEach(() => cleanup());

  it('replaces a file and leaves no temp file behind', async () => {
    const target = path.join(dir, 'SKILL.md');
    fs.writeFileSync(target, 'old\n');
    await writeFileAtomic(target, 'new\n');
    assert.equal(fs.readFileSync(target, 'utf8'), 'new\n');
    assert.deepEqual(fs.readdirSync(dir), ['SKILL.md']);
  });

  it('creates missing parent folders and keeps an existing file mode', async () => {
    const script = path.join(dir, 'scripts', 'run.sh');
    await writeFileAtomic(script, '#!/bin/sh\n', { mode: 0o755 });
    assert.equal(fs.statSync(script).mode & 0o777, 0o755);
    await writeFileAtomic(script, '#!/bin/sh\necho hi\n');
    assert.equal(fs.statSync(script).mode & 0o777, 0o755);
  });

  it('without flushes (durable: false) too: replaces, makes missing folders, keeps an existing mode, leaves no temp file', async () => {
    const script = path.join(dir, 'a', 'b', 'run.sh');
    await writeFileAtomic(script, '#!/bin/sh\n', { mode: 0o755, durable: false });
    assert.equal(fs.statSync(script).mode & 0o777, 0o755);
    await writeFileAtomic(script, '#!/bin/sh\necho hi\n', { durable: false });
    assert.equal(fs.readFileSync(script, 'utf8'), '#!/bin/sh\necho hi\n');
    assert.equal(fs.statSync(script).mode & 0o777, 0o755);
    assert.deepEqual(fs.readdirSync(path.dirname(script)), ['run.sh']);
    // A path through a file is refused, and nothing is left behind.
    await assert.rejects(writeFileAtomic(path.join(script, 'x'), 'y', { durable: false }), /ENOTDIR/);
  });

  it('creates a whole skill folder at once', async () => {
    const target = path.join(dir, 'skills', 'pdf');
    await createDirAtomic(target, [
      { path: 'SKILL.md', content: '---\nname: pdf\n---\n' },
      { path: 'scripts/fill.py', content: 'print(1)\n', mode: 0o755 },
      { path: 'references/a/b.md', content: Buffer.from('deep') },
    ]);
    assert.deepEqual(listTree(path.join(dir, 'skills')), ['pdf/', 'pdf/SKILL.md', 'pdf/references/', 'pdf/references/a/', 'pdf/references/a/b.md', 'pdf/scripts/', 'pdf/scripts/fill.py']);
    assert.equal(fs.statSync(path.join(target, 'scripts/fill.py')).mode & 0o777, 0o755);
  });

  it('refuses an existing target and an escaping file path, leaving nothing behind', async () => {
    const target = path.join(dir, 'pdf');
    fs.mkdirSync(target);
    await assert.rejects(createDirAtomic(target, [{ path: 'SKILL.md', content: 'x' }]), (e: unknown) => e instanceof EditError && e.code === 'TARGET_EXISTS');
    const other = path.join(dir, 'other');
    await assert.rejects(createDirAtomic(other, [{ path: '../evil.txt', content: 'x' }]), (e: unknown) => e instanceof EditError && e.code === 'UNSAFE_PATH');
    assert.deepEqual(fs.readdirSync(dir), ['pdf']);
  });

  it('recognises and sweeps stale temp files', async () => {
    fs.writeFileSync(path.join(dir, '.SKILL.md.tmp-123-abcd'), 'partial');
    fs.writeFileSync(path.join(dir, 'SKILL.md'), 'ok');
    assert.ok(isTempName('.SKILL.md.tmp-123-abcd'));
    assert.ok(!isTempName('SKILL.md'));
    assert.deepEqual(await sweepTempFiles(dir, 60_000), []);
    // mtimeMs has sub-millisecond digits and Date.now() does not: within the same millisecond the file would
    // look newer than "now", so age it by a second instead of racing the clock.
    const past = new Date(Date.now() - 1000);
    fs.utimesSync(path.join(dir, '.SKILL.md.tmp-123-abcd'), past, past);
    assert.deepEqual(await sweepTempFiles(dir, 0), ['.SKILL.md.tmp-123-abcd']);
    assert.deepEqual(fs.readdirSync(dir), ['SKILL.md']);
  });
});
