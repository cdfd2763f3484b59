import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  assertFileFresh,
  assertSkillFresh,
  checkFileRef,
  diffManifests,
  digestOf,
  fileVersionRef,
  skillManifest,
  StaleRefError,
  versionRefSchema,
} from '../../../src/core/edit';
import { makeTempDir } from '../../support/tempDir';

describe('edit/versionRef', () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = makeTempDir()));
  afterEach(() => cleanup());

  it('is sha256 of the bytes', async () => {
    assert.equal(digestOf('abc'), 'sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const f = path.join(dir, 'a.md');
    assert.equal(await fileVersionRef(f), null);
    fs.writeFileSync(f, 'abc');
    assert.equal(await fileVersionRef(f), digestOf('abc'));
    assert.ok(versionRefSchema.safeParse(digestOf('x')).success);
    assert.ok(!versionRefSchema.safeParse('sha256:xyz').success);
  });

  it('detects a file edited on disk since a ref', async () => {
    const f = path.join(dir, 'SKILL.md');
    fs.writeFileSync(f, 'v1\n');
    const ref = (await fileVersionRef(f))!;
    assert.equal((await checkFileRef(f, ref)).fresh, true);
    fs.writeFileSync(f, 'v1 edited elsewhere\n');
    const check = await checkFileRef(f, ref);
    assert.equal(check.fresh, false);
    assert.equal(check.currentRef, digestOf('v1 edited elsewhere\n'));
    await assert.rejects(assertFileFresh(f, ref), (e: unknown) => e instanceof StaleRefError && e.currentRef === check.currentRef && /runSkill inspect/.test(e.message));
  });

  it('gives a skill ref that changes on add, edit and remove, ignoring temp files', async () => {
    fs.mkdirSync(path.join(dir, 'scripts'));
    fs.writeFileSync(path.join(dir, 'SKILL.md'), 'body');
    fs.writeFileSync(path.join(dir, 'scripts', 'a.py'), 'a');
    const m1 = await skillManifest(dir);
    assert.deepEqual(m1.files.map((f) => f.path), ['SKILL.md', 'scripts/a.py']);
    fs.writeFileSync(path.join(dir, '.SKILL.md.tmp-1-ff'), 'junk');
    assert.equal((await skillManifest(dir)).ref, m1.ref);
    await assertSkillFresh(dir, m1.ref);
    fs.writeFileSync(path.join(dir, 'scripts', 'a.py'), 'b');
    fs.writeFileSync(path.join(dir, 'new.md'), 'n');
    const m2 = await skillManifest(dir);
    assert.notEqual(m2.ref, m1.ref);
    assert.deepEqual(diffManifests(m1, m2), { added: ['new.md'], removed: [], changed: ['scripts/a.py'] });
    await assert.rejects(assertSkillFresh(dir, m1.ref), StaleRefError);
  });
});
