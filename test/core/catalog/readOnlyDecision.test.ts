// Issue 23 (one decision once): "is this skill installed read-only, so its edits go to an overlay?" was answered two
// ways in SkillCatalog: updateSkill and archive asked the record's source kind (`readOnly`), while the runtime's
// `skillSource().overlayDir` looked at the id's prefix (`plugin:` or `pack:`). A read-only kind whose ids carry
// another prefix (a kind registered beside the table's, as the source kinds allow) was patched into its overlay and
// then read from its source folder: the edit was recorded and never served. Now both ask the record's kind.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { invokeUpdateSkill, SkillCatalog } from '../../../src/core/catalog';
import { createSkillsRuntime } from '../../../src/core/runtime';
import { registerSourceKind, type SourceKind } from '../../../src/core/sources';
import { makeWorld, ok, writeSkill } from './catalogTestUtil';

/** A read-only kind whose ids do not start with `plugin:` or `pack:`. */
const vendorKind: SourceKind = { name: 'vendor', rank: 2.5, readOnly: true, label: 'Vendor', idPrefix: 'vendor', idHasSource: true, scopeWord: 'vendor', inWorkspace: false };

describe('one decision for "read-only at its source, so edited through an overlay"', () => {
  let registration: { dispose(): void };
  beforeEach(() => (registration = registerSourceKind(vendorKind)));
  afterEach(() => registration.dispose());

  async function world() {
    const w = makeWorld();
    const vendor = path.join(w.base, 'vendor');
    writeSkill(vendor, 'deploy', { body: '# Deploy\n\nShip it.\n' });
    writeSkill(w.plugin, 'lint');
    writeSkill(w.workspace, 'notes');
    const catalog = await SkillCatalog.open({ roots: [...w.roots, { path: vendor, scope: 'vendor', source: 'acme' }], stateDir: w.stateDir });
    return { w, vendor, catalog };
  }

  it('a patched skill of a read-only kind with its own id prefix is served patched by the runtime', async () => {
    const { vendor, catalog } = await world();
    const source = fs.readFileSync(path.join(vendor, 'deploy', 'SKILL.md'), 'utf8');
    ok(await invokeUpdateSkill(catalog, { action: 'patch', skill: 'vendor:acme:deploy', edits: [{ startLine: 7, newText: 'Ship it on Tuesdays.' }], reason: 'test' }));
    assert.equal(fs.readFileSync(path.join(vendor, 'deploy', 'SKILL.md'), 'utf8'), source, 'the read-only source folder is untouched');
    const runtime = createSkillsRuntime({ source: catalog.skillSource() });
    await runtime.openSession('s');
    const load = await runtime.invoke('load', { names: ['vendor:acme:deploy'] }, { sessionId: 's' });
    assert.ok(load.ok, JSON.stringify(load));
    assert.match(JSON.stringify(await runtime.compose('s', [{ role: 'user', content: 'deploy' }])), /Ship it on Tuesdays\./, 'the turn shows the source body, not the patched one');
    const read = await runtime.invoke('read', { path: 'SKILL.md' }, { sessionId: 's' });
    if (!read.ok) assert.fail(JSON.stringify(read.error));
    assert.match(String((read.result as { content?: unknown }).content), /Ship it on Tuesdays\./, 'the runtime read the source folder, not the overlay the edit went to');
  });

  it('the runtime\'s overlay folder and the catalog\'s are the same for every skill of every kind', async () => {
    const { catalog } = await world();
    const seen = new Set<string>();
    for (const e of catalog.entries()) {
      seen.add(e.source);
      assert.equal(catalog.skillSource().overlayDir?.(e.id), e.writableAtSource ? undefined : catalog.overlayDir(e), e.id);
    }
    assert.deepEqual([...seen].sort(), ['plugin', 'vendor', 'workspace']);
  });
});
