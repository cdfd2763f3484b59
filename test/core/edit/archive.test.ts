import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ARCHIVE_DIR_NAME, archiveSkill, EditError, listArchived, restoreArchived, skillManifest } from '../../../src/core/edit';
import { listTree, makeTempDir } from '../../support/tempDir';

describe('edit/archive', () => {
  let dir: string;
  let cleanup: () => void;
  let skill: string;
  beforeEach(() => {
    ({ dir, cleanup } = makeTempDir());
    skill = path.join(dir, 'skills', 'pdf');
    fs.mkdirSync(path.join(skill, 'scripts'), { recursive: true });
    fs.writeFileSync(path.join(skill, 'SKILL.md'), '---\nname: pdf\n---\nbody\n');
    fs.writeFileSync(path.join(skill, 'scripts', 'a.py'), 'print(1)\n');
  });
  afterEach(() => cleanup());

  it('round-trips: archive moves the folder out with a manifest, restore puts it back unchanged', async () => {
    const before = await skillManifest(skill);
    const archived = await archiveSkill(skill, { reason: 'unused', skillId: 'workspace:pdf', now: new Date('2025-03-04T05:06:07Z') });
    assert.ok(!fs.existsSync(skill));
    assert.equal(path.dirname(archived.entryDir), path.join(dir, 'skills', ARCHIVE_DIR_NAME));
    assert.equal(archived.manifest.originalPath, skill);
    assert.equal(archived.manifest.archivedAt, '2025-03-04T05:06:07.000Z');
    assert.equal(archived.manifest.versionRef, before.ref);
    const listed = await listArchived(path.join(dir, 'skills', ARCHIVE_DIR_NAME));
    assert.deepEqual(listed.map((e) => [e.manifest.id, e.complete]), [[archived.manifest.id, true]]);
    const restored = await restoreArchived(path.join(dir, 'skills', ARCHIVE_DIR_NAME), archived.manifest.id);
    assert.equal(restored.restoredTo, skill);
    assert.equal((await skillManifest(skill)).ref, before.ref);
    assert.deepEqual(listTree(path.join(dir, 'skills', ARCHIVE_DIR_NAME)), []);
  });

  it('refuses to restore over an existing folder, and names unknown entries', async () => {
    const archived = await archiveSkill(skill);
    fs.mkdirSync(skill);
    fs.writeFileSync(path.join(skill, 'SKILL.md'), 'a new pdf skill');
    const root = path.join(dir, 'skills', ARCHIVE_DIR_NAME);
    await assert.rejects(restoreArchived(root, archived.manifest.id), (e: unknown) => e instanceof EditError && e.code === 'TARGET_EXISTS' && /already exists/.test(e.message));
    assert.equal(fs.readFileSync(path.join(skill, 'SKILL.md'), 'utf8'), 'a new pdf skill');
    const elsewhere = path.join(dir, 'skills', 'pdf-old');
    assert.equal((await restoreArchived(root, archived.manifest.id, { targetPath: elsewhere })).restoredTo, elsewhere);
    assert.ok(fs.existsSync(path.join(elsewhere, 'scripts', 'a.py')));
    await assert.rejects(restoreArchived(root, 'nope'), /No archived skill "nope".*the archive is empty/);
    await assert.rejects(archiveSkill(path.join(dir, 'missing')), /not an existing skill folder/);
  });
});
