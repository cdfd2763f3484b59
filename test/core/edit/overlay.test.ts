import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { digestOf, resolveEffectiveFile, RevisionStore, SEED_REASON, SkillOverlay, StaleRefError } from '../../../src/core/edit';
import { makeTempDir } from '../../support/tempDir';

describe('edit/overlay', () => {
  let dir: string;
  let cleanup: () => void;
  let source: string;
  let overlayDir: string;
  let overlay: SkillOverlay;
  let store: RevisionStore;
  beforeEach(() => {
    ({ dir, cleanup } = makeTempDir());
    source = path.join(dir, 'plugin', 'skills', 'pdf');
    overlayDir = path.join(dir, 'overlay', 'pdf');
    fs.mkdirSync(path.join(source, 'scripts'), { recursive: true });
    fs.writeFileSync(path.join(source, 'SKILL.md'), 'original\n');
    fs.writeFileSync(path.join(source, 'scripts', 'x.py'), 'x\n');
    fs.chmodSync(source, 0o555);
    store = new RevisionStore(path.join(dir, 'revisions'));
    overlay = new SkillOverlay({ skillId: 'plugin:acme.pdf:pdf', sourceDir: source, overlayDir, store });
  });
  afterEach(() => {
    fs.chmodSync(source, 0o755);
    cleanup();
  });

  it('serves the source until edited, then the newest overlay revision; the source is never written', async () => {
    assert.equal((await overlay.resolve('SKILL.md'))?.origin, 'source');
    const w = await overlay.write('SKILL.md', 'edited\n', { reason: 'clarify', expectedRef: digestOf('original\n') });
    assert.equal(w.previousRef, digestOf('original\n'));
    await overlay.write('SKILL.md', 'edited twice\n', { reason: 'more' });
    const eff = await overlay.resolve('SKILL.md');
    assert.equal(eff?.origin, 'overlay');
    assert.equal(eff?.content.toString(), 'edited twice\n');
    assert.equal(fs.readFileSync(path.join(source, 'SKILL.md'), 'utf8'), 'original\n');
    assert.equal((await resolveEffectiveFile(source, overlayDir, 'scripts/x.py'))?.origin, 'source');
    assert.equal(await resolveEffectiveFile(source, overlayDir, 'missing.md'), null);
    const h = await store.history('plugin:acme.pdf:pdf', 'SKILL.md');
    assert.deepEqual(h.map((r) => r.reason), [SEED_REASON, 'clarify', 'more']);
  });

  it('lists source and overlay-only files, restores the original, and refuses a stale ref', async () => {
    await overlay.write('references/new.md', 'new\n', { reason: 'add reference' });
    assert.deepEqual(await overlay.listFiles(), ['SKILL.md', 'references/new.md', 'scripts/x.py']);
    await overlay.write('SKILL.md', 'edited\n', { reason: 'edit' });
    await assert.rejects(overlay.write('SKILL.md', 'lost update\n', { reason: 'x', expectedRef: digestOf('original\n') }), StaleRefError);
    const seed = (await store.history('plugin:acme.pdf:pdf', 'SKILL.md'))[0];
    await overlay.restore(seed.seq);
    assert.equal((await overlay.resolve('SKILL.md'))?.content.toString(), 'original\n');
    assert.equal(await overlay.sourceChangedSinceSeed('SKILL.md'), false);
    await assert.rejects(overlay.resolve('../../escape'), /".." segments are not allowed/);
  });
});
