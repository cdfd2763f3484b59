// The `minimal` tool surface (seed 003) as the model sees it, and a catalog sharing a host's registry (the VS
// Code extension's): a write through the catalog is seen by the host's registry and its listeners at once.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bothToolGuidanceNote, invokeRunSkill, invokeUpdateSkill, minimalToolGuidance, runtimeSessionLoader, SkillCatalog, type RunResult } from '../../../src/core/catalog';
import { defaultToolingGuidance } from '../../../src/core/prompt';
import { createSkillRegistry } from '../../../src/core/registry';
import { createSkillsRuntime } from '../../../src/core/runtime';
import { skillSourceOf } from '../../../src/core/runtime/registrySource';
import { makeWorld, ok, writeSkill } from './catalogTestUtil';

const HOST_NAMES = { load: 'load_skills', unload: 'unload_skills', read: 'read_skill_file', run_script: 'run_skill_script', list_docs: 'list_skill_docs', select_docs: 'select_skill_docs' };
const CATALOG_NAMES = { runSkill: 'runSkill', updateSkill: 'updateSkill' };

describe('catalog: the minimal tool surface in composed instructions', () => {
  it('names only runSkill and updateSkill (rules, guidance, omitted line) and keeps the bounded catalog', async () => {
    const w = makeWorld();
    // Enough skills that some are left out even past the ones listed by name only (<more_skills>).
    for (let i = 0; i < 300; i++) writeSkill(w.workspace, `skill-${i}`, { description: `Handles task number ${i} with care and attention to detail. Use when task ${i} comes up.` });
    const registry = createSkillRegistry({ roots: w.roots });
    await registry.refresh();
    const catalog = await SkillCatalog.open({ roots: w.roots, registry, stateDir: w.stateDir });
    const runtime = createSkillsRuntime({
      source: skillSourceOf(registry),
      toolNames: HOST_NAMES,
      toolingGuidance: minimalToolGuidance(CATALOG_NAMES),
      catalogTools: CATALOG_NAMES,
      catalogBudget: { maxChars: 1500 },
      loadMode: 'session',
    });
    await runtime.openSession('s');
    const r = ok(await invokeRunSkill(catalog, { action: 'run', skill: 'skill-3' }, { sessionId: 's' }, { sessions: runtimeSessionLoader(runtime) })) as unknown as Extract<RunResult, { status: 'ready' }>;
    assert.equal(r.loaded, true);
    const { instructions } = await runtime.compose('s', [{ role: 'user', content: 'do task 3' }]);
    for (const name of Object.values(HOST_NAMES)) assert.ok(!instructions.includes(name), `the instructions mention ${name}:\n${instructions}`);
    assert.match(instructions, /call runSkill with action "run"/);
    assert.match(instructions, /updateSkill/);
    assert.match(instructions, /<available_skills>/, 'the compact catalog stays');
    assert.match(instructions, /more skills are installed but not listed here[^\n]*call runSkill \(action "run"\)/, 'the omitted line points at runSkill');
    assert.match(instructions, /<skill name="skill-3">/, 'a skill run through runSkill is loaded like load_skills would');
  });

  it('standard and both keep the runtime tools in the rules; both adds the catalog tools to the guidance', async () => {
    const w = makeWorld();
    writeSkill(w.workspace, 'alpha');
    const registry = createSkillRegistry({ roots: w.roots });
    await registry.refresh();
    const both = createSkillsRuntime({ source: skillSourceOf(registry), toolNames: HOST_NAMES, toolingGuidance: `${defaultToolingGuidance(HOST_NAMES)}\n- ${bothToolGuidanceNote(CATALOG_NAMES)}` });
    const { instructions } = await both.compose('s', [{ role: 'user', content: 'hi' }]);
    assert.match(instructions, /call load_skills with a skill's name/);
    assert.match(instructions, /use runSkill \(list, inspect, run\) and updateSkill/);
  });
});

describe('catalog: sharing the host\'s registry', () => {
  it('opens without a second scan, and a patch is seen by the host registry and its listeners', async () => {
    const w = makeWorld();
    const dir = writeSkill(w.workspace, 'notes', { description: 'Old description. Use when testing.' });
    const registry = createSkillRegistry({ roots: w.roots });
    await registry.refresh();
    let scans = 0;
    const original = registry.refresh.bind(registry);
    registry.refresh = async () => {
      scans++;
      return original();
    };
    const catalog = await SkillCatalog.open({ roots: w.roots, registry, stateDir: w.stateDir });
    assert.equal(scans, 0, 'the shared registry was rescanned at open');
    let changes = 0;
    registry.onDidChange(() => changes++);
    const inspect = ok(await invokeRunSkill(catalog, { action: 'inspect', skill: 'workspace:notes' })) as unknown as { versionRef: string };
    const diff = ['--- a/SKILL.md', '+++ b/SKILL.md', '@@ -1,4 +1,4 @@', ' ---', ' name: notes', '-description: Old description. Use when testing.', '+description: New description. Use when testing.', ' ---', ''].join('\n');
    ok(await invokeUpdateSkill(catalog, { action: 'patch', skill: 'workspace:notes', diff, expectedVersionRef: inspect.versionRef }));
    assert.match(fs.readFileSync(path.join(dir, 'SKILL.md'), 'utf8'), /New description/);
    assert.equal(registry.resolve('notes').description, 'New description. Use when testing.');
    assert.ok(changes > 0, 'the registry did not tell its listeners');
  });
});
