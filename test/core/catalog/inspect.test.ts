import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { invokeRunSkill, type InspectResult } from '../../../src/core/catalog';
import { failed, makeWorld, ok, openCatalog, writeSkill } from './catalogTestUtil';

describe('catalog: runSkill inspect', () => {
  it('returns small skills whole, raw and line-numbered, with metadata and files', async () => {
    const w = makeWorld();
    writeSkill(w.workspace, 'small', { body: '# Small\n\nOne.\n', files: { 'docs/a.md': 'A\n' } });
    const catalog = await openCatalog(w);
    const r = ok(await invokeRunSkill(catalog, { action: 'inspect', skill: 'small' })) as unknown as InspectResult;
    assert.equal(r.content, fs.readFileSync(path.join(w.workspace, 'small', 'SKILL.md'), 'utf8'));
    assert.match(r.contentWithLineNumbers!, /^ {3}1 \| ---\n/);
    assert.match(r.contentWithLineNumbers!, / {3}6 \| # Small/);
    assert.equal(r.chunk, undefined);
    assert.deepEqual(r.files.map((f) => f.path), ['SKILL.md', 'docs/a.md']);
    assert.equal(r.skill.id, 'workspace:small');
    assert.equal(r.skill.properties.name, 'small');
    const doc = ok(await invokeRunSkill(catalog, { action: 'inspect', skill: 'small', file: 'docs/a.md', view: 'raw' })) as unknown as InspectResult;
    assert.equal(doc.content, 'A\n');
    assert.equal(doc.contentWithLineNumbers, undefined);
    assert.equal(failed(await invokeRunSkill(catalog, { action: 'inspect', skill: 'small', file: 'nope.md' })).code, 'not_found');
    assert.equal(failed(await invokeRunSkill(catalog, { action: 'inspect', skill: 'small', file: '../x' })).code, 'unsafe_path');
  });

  it('returns a 2 MB skill in explicit parts that reconstruct it byte for byte', async function () {
    // The work is bounded: about 0.4 s of CPU on a quiet machine (fixture 15 ms, opening the catalog 100 ms, each
    // of the 10 parts 30 ms, measured with process.cpuUsage); the loop below cannot run on, since each part must be the next
    // number at the offset asked for.
    // At load 45 on 2 cores that wall time stretches past mocha's 20 s default, so this timeout only guards a hang
    // (a read that never returns); it says nothing about speed, which `npm run bench` measures.
    this.timeout(180_000);
    const w = makeWorld();
    const rnd = crypto.randomBytes(600_000).toString('base64');
    const lines: string[] = [];
    // multi-byte characters and long lines without newlines force boundary handling
    // the running length is kept by hand: re-joining all lines on every iteration was quadratic and made
    // building the fixture (not inspecting it) take most of this test's time on a loaded machine
    let joinedLength = -1;
    for (let i = 0; joinedLength < 2 * 1024 * 1024; i++) {
      const line = i % 50 === 0 ? `ünïcödé ✓ ${'€'.repeat(i % 7)} ${rnd.slice(i * 30, i * 30 + 70000)}` : `line ${i}: ${rnd.slice(i % 1000, (i % 1000) + 80)}`;
      lines.push(line);
      joinedLength += line.length + 1;
    }
    writeSkill(w.workspace, 'huge', { body: `# Huge\n\n${lines.join('\n')}\n` });
    const file = path.join(w.workspace, 'huge', 'SKILL.md');
    const bytes = fs.readFileSync(file);
    assert.ok(bytes.length > 2 * 1024 * 1024);
    const catalog = await openCatalog(w);
    const parts: Buffer[] = [];
    let offset: number | null = 0;
    let expectedPart = 1;
    let nParts = 0;
    let startLine = 1;
    while (offset !== null) {
      const r = ok(await invokeRunSkill(catalog, { action: 'inspect', skill: 'huge', offset })) as unknown as InspectResult;
      assert.equal(r.content, undefined);
      const c = r.chunk!;
      assert.equal(c.part, expectedPart++);
      assert.equal(c.offset, offset);
      assert.equal(c.startLine, startLine);
      assert.ok(c.length <= 256 * 1024);
      assert.match(r.warnings.join('\n'), new RegExp(`part ${c.part} of ${c.parts}`));
      const buf = Buffer.from(c.text, 'utf8');
      assert.equal(buf.length, c.length);
      assert.equal(c.numbered!.split('\n')[0].trimStart().split(' | ')[0], String(c.startLine));
      startLine += (c.text.match(/\n/g) ?? []).length;
      parts.push(buf);
      nParts = c.parts;
      offset = c.nextOffset;
    }
    assert.ok(nParts >= 8, `parts: ${nParts}`);
    assert.ok(Buffer.concat(parts).equals(bytes), 'the parts reconstruct the file exactly');
    // the first call without offset is part 1 too, and an offset inside a part is refused with the part starts
    const first = ok(await invokeRunSkill(catalog, { action: 'inspect', skill: 'huge' })) as unknown as InspectResult;
    assert.equal(first.chunk!.part, 1);
    const bad = failed(await invokeRunSkill(catalog, { action: 'inspect', skill: 'huge', offset: 5 }));
    assert.equal(bad.code, 'invalid_offset');
    assert.match(bad.message, /Ask for offset 0/);
  });
});
