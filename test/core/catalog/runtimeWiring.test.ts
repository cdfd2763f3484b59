import * as assert from 'node:assert/strict';
import { invokeRunSkill, invokeUpdateSkill, minimalToolGuidance, runtimeSessionLoader, type ListResult, type RunResult } from '../../../src/core/catalog';
import { createSkillsRuntime } from '../../../src/core/runtime';
import { makeWorld, ok, openCatalog, writeSkill } from './catalogTestUtil';

describe('catalog: wired to the skills runtime', () => {
  it('run loads the newest (overlay) revision of a plugin skill into a real runtime session', async () => {
    const w = makeWorld();
    writeSkill(w.plugin, 'deploy', { body: '# Deploy\n\nShip it.\n' });
    writeSkill(w.workspace, 'other');
    const catalog = await openCatalog(w);
    ok(await invokeUpdateSkill(catalog, { action: 'patch', skill: 'deploy', edits: [{ startLine: 8, newText: 'Ship it carefully.' }] }));
    const runtime = createSkillsRuntime({ source: catalog.skillSource(), toolingGuidance: minimalToolGuidance() });
    await runtime.openSession('s1');
    const sessions = runtimeSessionLoader(runtime);
    const r = ok(await invokeRunSkill(catalog, { action: 'run', skill: 'deploy' }, { sessionId: 's1' }, { sessions })) as unknown as Extract<RunResult, { status: 'ready' }>;
    assert.equal(r.loaded, true);
    assert.deepEqual(runtime.sessions.get('s1')!.active_skills.map((a) => a.id), ['plugin:acme.tools:deploy']);
    const active = ok(await invokeRunSkill(catalog, { action: 'list', activeOnly: true }, { sessionId: 's1' }, { sessions })) as unknown as ListResult;
    assert.deepEqual(active.skills.map((s) => s.id), ['plugin:acme.tools:deploy']);
    const composed = await runtime.compose('s1', [{ role: 'user', content: 'deploy please' }]);
    assert.match(JSON.stringify(composed), /Ship it carefully\./, 'the session sees the overlay revision');
    assert.match(JSON.stringify(composed), /runSkill/);
  });
});
