import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { digestOf, EditError, RevisionStore } from '../../../src/core/edit';
import { makeTempDir } from '../../support/tempDir';

describe('edit/revisionStore', () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = makeTempDir()));
  afterEach(() => cleanup());

  it('records history with digests, refs, previous refs, reasons and times', async () => {
    const store = new RevisionStore(path.join(dir, 'store'));
    const id = 'plugin:acme.tools:pdf';
    await store.append({ skillId: id, file: 'SKILL.md', content: 'v1', reason: 'create', time: new Date('2025-01-01T00:00:00Z') });
    await store.append({ skillId: id, file: 'SKILL.md', content: 'v2', reason: 'fix typo' });
    await store.append({ skillId: id, file: 'scripts/a.py', content: 'print(1)', reason: 'add script' });
    const h = await store.history(id, 'SKILL.md');
    assert.deepEqual(h.map((r) => [r.seq, r.reason, r.digest]), [[1, 'create', digestOf('v1')], [2, 'fix typo', digestOf('v2')]]);
    assert.equal(h[0].previousRef, null);
    assert.equal(h[1].previousRef, digestOf('v1'));
    assert.equal(h[0].time, '2025-01-01T00:00:00.000Z');
    assert.equal((await store.history(id)).length, 3);
    assert.equal((await store.content(h[0]))!.toString(), 'v1');
    // the id is encoded into a portable file name
    assert.deepEqual(fs.readdirSync(path.join(dir, 'store', 'skills')), ['plugin%3aacme%2etools%3apdf.jsonl']);
  });

  it('refuses a log past its read limit with the size and the limit, without reading it (a planted 300 MiB sparse log)', async () => {
    const store = new RevisionStore(path.join(dir, 'store'));
    const id = 'workspace:big';
    await store.append({ skillId: id, file: 'SKILL.md', content: 'v1', reason: 'create' });
    fs.truncateSync(store.logPath(id), 300 * 1024 * 1024);
    const used = process.memoryUsage().rss;
    await assert.rejects(store.history(id), (e: Error & { code?: string }) => e.code === 'REVISION_CORRUPT' && /Move it aside/.test(e.message) && /300 MiB|314572800/.test(e.message) && /256 MiB|268435456/.test(e.message) && e.message.includes(store.logPath(id)));
    assert.ok(process.memoryUsage().rss - used < 64 * 1024 * 1024, 'the log was not read into memory');
  });

  it('stores large and binary contents as verified content-addressed blobs', async () => {
    const store = new RevisionStore(path.join(dir, 'store'), { inlineLimit: 16 });
    const big = 'x'.repeat(1000);
    const bin = Buffer.from([0xff, 0xfe, 0x00, 0x80]);
    const r1 = await store.append({ skillId: 's', file: 'big.md', content: big, reason: 'big' });
    const r2 = await store.append({ skillId: 's', file: 'big.md', content: big, reason: 'same again' });
    const r3 = await store.append({ skillId: 's', file: 'b.bin', content: bin, reason: 'binary' });
    assert.ok(r1.blob && r1.blob === r2.blob && !r1.content);
    assert.equal(r3.content?.encoding, 'base64');
    assert.deepEqual(await store.content(r3), bin);
    assert.equal(fs.readdirSync(path.join(dir, 'store', 'blobs')).length, 1);
    fs.writeFileSync(path.join(dir, 'store', 'blobs', r1.blob!), 'tampered');
    await assert.rejects(store.content(r1), (e: unknown) => e instanceof EditError && e.code === 'REVISION_CORRUPT');
    // A blob gone, or a folder in its place: the revision says which file and what to do instead.
    const blob = path.join(dir, 'store', 'blobs', r1.blob!);
    fs.rmSync(blob);
    await assert.rejects(store.content(r1), (e: unknown) => e instanceof EditError && e.code === 'REVISION_CORRUPT' && e.message.includes(blob) && /is missing.*Restore another revision/.test(e.message));
    fs.mkdirSync(blob);
    await assert.rejects(store.content(r1), (e: unknown) => e instanceof EditError && e.code === 'REVISION_CORRUPT' && /is a folder, not a file.*Restore another revision/.test(e.message));
  });

  it('reports a torn last line instead of failing, and the next append removes it', async () => {
    const root = path.join(dir, 'store');
    const store = new RevisionStore(root);
    await store.append({ skillId: 's', file: 'SKILL.md', content: 'one', reason: 'a' });
    await store.append({ skillId: 's', file: 'SKILL.md', content: 'two', reason: 'b' });
    const log = store.logPath('s');
    fs.appendFileSync(log, '{"v":1,"seq":3,"skillId":"s","fi');
    const torn = await new RevisionStore(root).read('s');
    assert.equal(torn.records.length, 2);
    assert.deepEqual(torn.torn, { line: 3, bytes: 32 });
    assert.deepEqual(torn.invalid, []);
    const writer = new RevisionStore(root);
    const r3 = await writer.append({ skillId: 's', file: 'SKILL.md', content: 'three', reason: 'c' });
    assert.equal(r3.seq, 3);
    assert.equal(r3.previousRef, digestOf('two'));
    const clean = await writer.read('s');
    assert.equal(clean.torn, null);
    assert.deepEqual(clean.records.map((r) => r.seq), [1, 2, 3]);
  });

  it('reports a damaged line in the middle without losing the records around it', async () => {
    const root = path.join(dir, 'store');
    const store = new RevisionStore(root);
    await store.append({ skillId: 's', file: 'SKILL.md', content: 'one', reason: 'a' });
    fs.appendFileSync(store.logPath('s'), '{"v":1,"seq":"two"}\nnot json\n');
    await new RevisionStore(root).append({ skillId: 's', file: 'SKILL.md', content: 'three', reason: 'c' });
    const log = await new RevisionStore(root).read('s');
    assert.deepEqual(log.records.map((r) => r.reason), ['a', 'c']);
    assert.deepEqual(log.invalid.map((i) => i.line), [2, 3]);
    assert.match(log.invalid[0].error, /seq: expected a positive integer/);
  });

  it('restores an earlier revision into the skill folder and records that as a new revision', async () => {
    const store = new RevisionStore(path.join(dir, 'store'));
    const skill = path.join(dir, 'skill');
    fs.mkdirSync(skill);
    for (const [content, reason] of [['v1', 'create'], ['v2', 'edit'], ['v3', 'edit again']]) {
      fs.writeFileSync(path.join(skill, 'SKILL.md'), content);
      await store.append({ skillId: 'workspace:s', file: 'SKILL.md', content, reason });
    }
    const r = await store.restore('workspace:s', 1, skill);
    assert.equal(fs.readFileSync(path.join(skill, 'SKILL.md'), 'utf8'), 'v1');
    assert.equal(r.seq, 4);
    assert.equal(r.previousRef, digestOf('v3'));
    assert.match(r.reason, /restore revision 1 \(create\)/);
    await assert.rejects(store.restore('workspace:s', 9, skill), /has no revision 9 \(it has revisions 1-4\)/);
  });

  it('serialises concurrent appends in one process', async () => {
    const store = new RevisionStore(path.join(dir, 'store'));
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.append({ skillId: 's', file: 'f.md', content: `c${i}`, reason: `r${i}` })));
    const log = await store.read('s');
    assert.deepEqual(log.records.map((r) => r.seq), Array.from({ length: 20 }, (_, i) => i + 1));
  });
});
