// The tools on an Agent Plugin's skill from a plugin folder outside any workspace (issue 13 point 4): load, read,
// docs, runSkill (inspect, run) and updateSkill work as on a workspace skill; edits go to an overlay revision and the
// installed plugin folder is never written.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createAgentSkills } from '../../../src/core/agentSkills';
import { invokeRunSkill, invokeUpdateSkill } from '../../../src/core/catalog';
import { pluginSkillRoots, PLUGIN_SCHEMA_1_0, readPlugins } from '../../../src/core/plugins';
import { lateSource } from '../../../src/core/runtime/lateSource';
import type { SkillSource } from '../../../src/core/runtime/runtimeTypes';

describe('the tools on an Agent Plugin skill outside the workspace', () => {
  let base: string;
  beforeEach(() => (base = fs.mkdtempSync(path.join(os.tmpdir(), 'plugin-tools-'))));
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  it('load, read, docs, runSkill inspect/run and updateSkill (to an overlay; the plugin folder untouched)', async () => {
    const plugin = path.join(base, 'installed', 'ops');
    const skill = path.join(plugin, 'skills', 'deploy');
    fs.mkdirSync(path.join(skill, 'references'), { recursive: true });
    fs.writeFileSync(path.join(plugin, 'plugin.json'), JSON.stringify({ $schema: PLUGIN_SCHEMA_1_0, name: 'ops', version: '2.0.0' }));
    const body = '---\nname: deploy\ndescription: Deploys the service. Use when the user asks to deploy.\n---\n\n# Deploy\n\nShip it after [the checklist](references/checklist.md).\n';
    fs.writeFileSync(path.join(skill, 'SKILL.md'), body);
    fs.writeFileSync(path.join(skill, 'references', 'checklist.md'), '- tests pass\n');
    const roots = pluginSkillRoots(readPlugins([plugin]));
    let source: SkillSource | undefined;
    const core = createAgentSkills({ roots, stateDir: path.join(base, 'state'), source: lateSource(() => source!) });
    await core.refresh();
    const catalog = await core.catalog();
    source = catalog.skillSource();
    const rt = core.tools();
    const call = async (tool: string, input: unknown) => {
      const r = await rt.invoke(tool, input, { sessionId: 's' });
      assert.ok(r.ok, `${tool}: ${JSON.stringify(r)}`);
      return r.result as Record<string, unknown>;
    };
    const loaded = await call('load', { names: ['plugin:ops:deploy'] });
    assert.deepEqual(loaded.loaded, ['deploy'], 'loaded by its plugin id');
    assert.equal((loaded.active_skills as { location: string }[])[0].location, path.join(skill, 'SKILL.md'));
    assert.match(String((await call('read', { skill: 'deploy', path: 'references/checklist.md' })).content), /tests pass/);
    assert.match(JSON.stringify(await call('list_docs', { skill: 'deploy' })), /references\/checklist\.md/);

    const inspect = await invokeRunSkill(catalog, { action: 'inspect', skill: 'plugin:ops:deploy' });
    assert.ok(inspect.ok, JSON.stringify(inspect));
    const run = await invokeRunSkill(catalog, { action: 'run', skill: 'deploy' });
    assert.ok(run.ok && /Ship it after/.test(JSON.stringify(run)), JSON.stringify(run));

    const edit = await invokeUpdateSkill(catalog, { action: 'patch', skill: 'plugin:ops:deploy', edits: [{ startLine: 8, newText: 'Ship it after the checklist and a review.' }], reason: 'test' });
    assert.ok(edit.ok, JSON.stringify(edit));
    assert.equal(fs.readFileSync(path.join(skill, 'SKILL.md'), 'utf8'), body, 'the installed plugin is read-only: the edit is an overlay revision');
    const again = await invokeRunSkill(catalog, { action: 'run', skill: 'deploy' });
    assert.ok(again.ok);
    assert.match(JSON.stringify(again), /and a review/);
    await core.flush();
  });
});
