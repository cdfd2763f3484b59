// The saved skill index: a second start over the same skills puts them back from the state folder without
// reading a body (counted by the body reader) and ranks exactly as a fresh build; an edited skill is read
// again; the file is written atomically through the host; a corrupt, foreign, truncated, oversized or
// other-tokenizer file is ignored with one log line and the index is rebuilt.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CatalogIndex, hostBodyReader, type IndexedSkill } from '../../../src/core/index';
import { decodeIndexFile, encodeIndexFile, MAX_INDEX_FILE_BYTES } from '../../../src/core/index/indexFile';
import { localDisk } from '../../../src/core/host/localDisk';
import { nodeWrites } from '../../../src/core/host/nodeWrites';
import { createSkillRegistry } from '../../../src/core/registry';
import { makeTempDir } from '../../support/tempDir';
import { generatedCatalog } from './generatedCatalog';

const host = { ...localDisk, ...nodeWrites };

function write(root: string, folder: string, description: string, body: string): void {
  fs.mkdirSync(path.join(root, folder), { recursive: true });
  fs.writeFileSync(path.join(root, folder, 'SKILL.md'), `---\nname: ${folder}\ndescription: ${JSON.stringify(description)}\n---\n${body}`);
}

describe('core/index: the saved index in the state folder', function () {
  // A hang guard, not a speed goal: each test builds and reads the index several times; alone the three take 28 s by
  // the clock at load 35, and 'ignores a corrupt…' outgrew mocha's 20 s default in a full unit run at load ~40.
  this.timeout(180_000);
  let tmp: { dir: string; cleanup: () => void };
  beforeEach(() => (tmp = makeTempDir('index-cache-')));
  afterEach(() => tmp.cleanup());

  /** 300 generated skills on disk and a registry over them. */
  async function catalogOnDisk() {
    const root = path.join(tmp.dir, 'skills');
    const { docs, queries } = generatedCatalog(300, 7);
    docs.forEach((d, i) => write(root, `s-${i}`, d.description || 'Does a thing.', d.body ?? ''));
    const registry = createSkillRegistry({ roots: [{ path: root, scope: 'user' }] });
    await registry.refresh();
    return { root, registry, queries };
  }

  function counted(): { reader: ReturnType<typeof hostBodyReader>; reads: () => number } {
    const inner = hostBodyReader(localDisk);
    let n = 0;
    return { reader: (s: IndexedSkill) => (n++, inner(s)), reads: () => n };
  }

  it('a second start reads no body, ranks exactly as a fresh build, and reads an edited skill again', async () => {
    const { root, registry, queries } = await catalogOnDisk();
    const file = path.join(tmp.dir, 'state', 'skill-index.bin');
    const logs: string[] = [];
    const first = counted();
    const a = new CatalogIndex(first.reader, { host, file, log: (m) => logs.push(m) });
    await a.sync(registry.usable());
    assert.equal(first.reads(), 300);
    await a.save();
    assert.deepEqual(fs.readdirSync(path.dirname(file)), ['skill-index.bin'], 'no temporary file is left beside it');

    const second = counted();
    const b = new CatalogIndex(second.reader, { host, file, log: (m) => logs.push(m) });
    await b.sync(registry.usable());
    assert.equal(second.reads(), 0, 'no body read on a start over unchanged skills');
    assert.equal(b.reused, 300);
    for (const q of queries) assert.deepEqual(b.index.search(q, 25), a.index.search(q, 25), `same ranking for ${JSON.stringify(q.slice(0, 40))}`);
    assert.deepEqual(logs, []);

    // An edit while stopped: that skill alone is read again, and its new words are found.
    const edited = path.join(root, 's-5', 'SKILL.md');
    fs.writeFileSync(edited, '---\nname: s-5\ndescription: Transcribes podcasts into subtitles.\n---\n# Whisper\nUse whisper.cpp.\n');
    fs.utimesSync(edited, new Date(), new Date(Date.now() + 5000));
    await registry.refresh();
    const third = counted();
    const c = new CatalogIndex(third.reader, { host, file });
    await c.sync(registry.usable());
    assert.equal(third.reads(), 1);
    assert.equal(c.index.search('podcast subtitles whisper', 1)[0].id, 'user:s-5');
  });

  it('ignores a corrupt, foreign, truncated or oversized file with one log line each, and rebuilds', async () => {
    const { registry } = await catalogOnDisk();
    const file = path.join(tmp.dir, 'state', 'skill-index.bin');
    const good = new CatalogIndex(hostBodyReader(localDisk), { host, file });
    await good.sync(registry.usable());
    await good.save();
    const bytes = fs.readFileSync(file);
    const header = JSON.parse(bytes.toString('utf8', 4, 4 + bytes.readUInt32LE(0)));
    const withHeader = (h: unknown, data = bytes.subarray((4 + bytes.readUInt32LE(0) + 3) & ~3)) => {
      const json = Buffer.from(JSON.stringify(h));
      const out = Buffer.alloc(((4 + json.length + 3) & ~3) + data.length);
      out.writeUInt32LE(json.length, 0);
      json.copy(out, 4);
      data.copy(out, (4 + json.length + 3) & ~3);
      return out;
    };
    const bad: [string, Buffer, RegExp][] = [
      ['random bytes', Buffer.from('not an index at all, just text'), /header length|not JSON/],
      ['truncated', bytes.subarray(0, bytes.length - 10), /data|past the end|whole number/],
      ['foreign JSON', withHeader({ format: 'something-else', version: 1 }), /not a saved skill index/],
      ['newer version', withHeader({ ...header, version: 99 }), /version 99/],
      ['other tokenizer', withHeader({ ...header, tokenizer: 'feedfacefeedface' }), /another tokenizer/],
      ['term id out of range', withHeader({ ...header, vocab: header.vocab.slice(0, 3) }), /outside the vocabulary/],
    ];
    for (const [what, content, reason] of bad) {
      fs.writeFileSync(file, content);
      const logs: string[] = [];
      const reader = counted();
      const c = new CatalogIndex(reader.reader, { host, file, log: (m) => logs.push(m) });
      await c.sync(registry.usable());
      assert.equal(logs.length, 1, `${what}: one log line (${logs.join(' | ')})`);
      assert.match(logs[0], reason, what);
      assert.ok(logs[0].includes(file), `${what}: the line names the file`);
      assert.equal(reader.reads(), 300, `${what}: rebuilt from the skills`);
      assert.equal(c.reused, 0);
      assert.deepEqual(c.index.search('pdf form table', 5), good.index.search('pdf form table', 5), `${what}: same results as a fresh build`);
    }
    // Larger than the bound: refused before it is parsed (the host's read limit).
    fs.writeFileSync(file, '');
    fs.truncateSync(file, MAX_INDEX_FILE_BYTES + 1);
    const logs: string[] = [];
    await new CatalogIndex(hostBodyReader(localDisk), { host, file, log: (m) => logs.push(m) }).sync(registry.usable());
    assert.equal(logs.length, 1, logs.join(' | '));
    assert.throws(() => decodeIndexFile(new Uint8Array(0)), /too short/);
  });

  it('encodes and decodes tokens losslessly', () => {
    // Term ids index a vocabulary that holds more than the saved skills use: only what they use is written.
    const words = ['unused', 'form', 'pdf form', 'pdf'];
    const vocabulary = { termCount: words.length, termOf: (t: number) => words[t] };
    const skills = [{ stamp: 'sha256:1', doc: { id: 'u:a', name: 'a', lengths: [1, 2, 3, 4], terms: [3, 1, 2], counts: [1, 2 ** 20 * 4095 + 1, 64] } }];
    const back = decodeIndexFile(encodeIndexFile(skills, vocabulary));
    const a = back.skills.get('u:a');
    assert.deepEqual(a && { id: a.doc.id, name: a.doc.name, lengths: a.doc.lengths, terms: Array.from(a.doc.termIds, (t) => back.vocab[t]), counts: Array.from(a.doc.counts) }, { ...skills[0].doc, terms: ['pdf', 'form', 'pdf form'] });
    assert.deepEqual(back.vocab, ['pdf', 'form', 'pdf form'], 'the file holds the terms the skills use, in order of first use');
    assert.throws(() => encodeIndexFile([{ stamp: 'sha256:2', doc: { ...skills[0].doc, terms: [4] } }], vocabulary), /u:a.*term id 4 is outside the vocabulary/);
    assert.deepEqual(Array.from(back.df), [1, 1, 1], 'each term held by one saved skill');
    assert.equal(a?.stamp, 'sha256:1');
  });
});
