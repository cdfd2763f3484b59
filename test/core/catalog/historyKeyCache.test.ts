// Issue 23: SkillCatalog.historyKey (a skill's id plus a digest of its install folder: what its revisions, its overlay
// and its place in the hidden list are kept under) is remembered per registry record. A remembered key must never
// outlive the folder it was made from: when the skill of one id is found in another folder, its key moves, so the old
// place's overlay is not served there and the old place's archive does not hide it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { archiveCatalogSkill, invokeUpdateSkill } from '../../../src/core/catalog';
import { createSkillsRuntime } from '../../../src/core/runtime';
import { makeWorld, ok, openCatalog, writeSkill } from './catalogTestUtil';

const ID = 'plugin:acme.tools:deploy';

describe('SkillCatalog.historyKey, remembered per record', () => {
  it('moves when the skill of an id is found in another folder: the old overlay is not served, the old archive does not hide it', async () => {
    const w = makeWorld();
    writeSkill(w.plugin, 'deploy', { name: 'deploy', body: '# Deploy\n\nShip it.\n' });
    const catalog = await openCatalog(w);
    const before = catalog.historyKey(catalog.resolve(ID));
    assert.equal(catalog.historyKey(catalog.resolve(ID)), before, 'the same record keeps its key');
    ok(await invokeUpdateSkill(catalog, { action: 'patch', skill: ID, edits: [{ startLine: 7, newText: 'Ship it on Tuesdays.' }], reason: 'test' }));
    assert.equal(catalog.resolve(ID).fromOverlay, true);

    // The plugin is reinstalled: the same skill id, now in another folder.
    fs.renameSync(path.join(w.plugin, 'deploy'), path.join(w.plugin, 'deploy-2'));
    await catalog.refresh();
    const moved = catalog.resolve(ID);
    assert.equal(moved.skillDir, path.join(w.plugin, 'deploy-2'));
    assert.notEqual(catalog.historyKey(moved), before, 'the key of the old folder was served for the new one');
    assert.equal(moved.fromOverlay, false, 'the old folder\'s overlay is served for the new folder');
    assert.notEqual(catalog.overlayDir(ID), catalog.overlayDir({ id: ID, skillDir: path.join(w.plugin, 'deploy'), writableAtSource: false }));
    const runtime = createSkillsRuntime({ source: catalog.skillSource() });
    await runtime.openSession('s');
    assert.ok((await runtime.invoke('load', { names: [ID] }, { sessionId: 's' })).ok);
    const read = await runtime.invoke('read', { path: 'SKILL.md' }, { sessionId: 's' });
    if (!read.ok) assert.fail(JSON.stringify(read.error));
    assert.doesNotMatch(String((read.result as { content?: unknown }).content), /Tuesdays/, 'the runtime read the old folder\'s overlay');

    // Archived in this folder, then moved back: the old place is not hidden by this one's entry, and vice versa.
    await archiveCatalogSkill(catalog, { skill: ID, reason: 'test' });
    assert.deepEqual(catalog.hiddenIds(), [ID]);
    fs.renameSync(path.join(w.plugin, 'deploy-2'), path.join(w.plugin, 'deploy'));
    await catalog.refresh();
    assert.deepEqual(catalog.hiddenIds(), [], 'the archive of the other folder hides this one');
    const back = catalog.resolve(ID);
    assert.equal(catalog.historyKey(back), before, 'back in its first folder, the skill has its first key again');
    assert.equal(back.fromOverlay, true, 'and its first folder\'s overlay');
  });

  it('moves when a remembered record\'s folder or id changes (a record object reused with other values)', async () => {
    const w = makeWorld();
    writeSkill(w.plugin, 'deploy');
    const catalog = await openCatalog(w);
    const record = { ...catalog.resolve(ID).record };
    const first = catalog.historyKey(record);
    record.rootDir = path.join(w.plugin, 'elsewhere');
    const second = catalog.historyKey(record);
    assert.notEqual(second, first, 'a key remembered for the record was served after its folder changed');
    assert.equal(second, catalog.historyKey({ id: ID, skillDir: record.rootDir, writableAtSource: false }), 'the remembered key is the computed one');
    record.id = 'plugin:acme.tools:other';
    assert.match(catalog.historyKey(record), /^plugin:acme\.tools:other@/);
  });
});
