// Issue 6: plugin and pack skills are read-only at their source, edits go to a revision overlay, and the catalog
// serves the newest revision. These tests check that the skills runtime's own tools (load, read, composed
// turns) serve that revision too when its source is the catalog's skillSource().
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { invokeUpdateSkill, SkillCatalog } from '../../../src/core/catalog';
import { createScriptRunner } from '../../../src/core/exec';
import { createSkillsRuntime, type SkillsRuntime } from '../../../src/core/runtime';
import { makeWorld, ok, openCatalog, writeSkill } from './catalogTestUtil';

const BODY = '# Deploy\n\nShip it.\n\nSee [the checklist](checklist.md).\n';

async function call(runtime: SkillsRuntime, tool: string, input: unknown): Promise<Record<string, unknown>> {
  const r = await runtime.invoke(tool, input, { sessionId: 's1' });
  if (!r.ok) throw new Error(`${tool} failed: ${JSON.stringify(r.error)}`);
  return r.result as Record<string, unknown>;
}

async function setup() {
  const w = makeWorld();
  const dir = writeSkill(w.plugin, 'deploy', { body: BODY, files: { 'checklist.md': '- tests pass\n' } });
  const catalog = await openCatalog(w);
  const runtime = createSkillsRuntime({ source: catalog.skillSource() });
  await runtime.openSession('s1');
  return { w, dir, catalog, runtime, source: fs.readFileSync(path.join(dir, 'SKILL.md'), 'utf8') };
}

describe('catalog overlay through the skills runtime (load, read, compose)', () => {
  it('load returns the patched body of a plugin skill, read serves the patched SKILL.md and doc; the source is untouched', async () => {
    const { dir, catalog, runtime, source } = await setup();
    ok(await invokeUpdateSkill(catalog, { action: 'patch', skill: 'plugin:acme.tools:deploy', edits: [{ startLine: 8, newText: 'Ship it only after the checklist.' }], reason: 'test' }));
    ok(await invokeUpdateSkill(catalog, { action: 'replace', skill: 'deploy', file: 'checklist.md', content: '- tests pass\n- changelog written\n', reason: 'test' }));

    const loaded = await call(runtime, 'load', { names: ['deploy'] });
    const receipt = (loaded.active_skills as { name: string; location: string; digest: string }[])[0];
    assert.equal(receipt.location, path.join(catalog.overlayDir('plugin:acme.tools:deploy'), 'SKILL.md'));
    const composed = JSON.stringify(await runtime.compose('s1', [{ role: 'user', content: 'deploy' }]));
    assert.match(composed, /Ship it only after the checklist\./);
    assert.doesNotMatch(composed, /Ship it\.\\n/);

    const skillMd = await call(runtime, 'read', { path: 'SKILL.md' });
    assert.match(String(skillMd.content), /Ship it only after the checklist\./);
    const doc = await call(runtime, 'read', { path: 'checklist.md' });
    assert.equal(doc.content, '- tests pass\n- changelog written\n');
    // Files never edited still come from the source folder; paths cannot escape through the overlay.
    const refused = await runtime.invoke('read', { path: '../SKILL.md' }, { sessionId: 's1' });
    assert.equal(refused.ok, false);

    assert.equal(fs.readFileSync(path.join(dir, 'SKILL.md'), 'utf8'), source, 'the plugin folder is read-only');
    assert.equal(fs.readFileSync(path.join(dir, 'checklist.md'), 'utf8'), '- tests pass\n');
  });

  it('a skill loaded before the edit shows the new revision on the next turn, and its selected docs too', async () => {
    const { catalog, runtime } = await setup();
    await call(runtime, 'load', { names: ['deploy'], docs: ['checklist.md'] });
    assert.match(JSON.stringify(await runtime.compose('s1', [{ role: 'user', content: 'deploy' }])), /Ship it\./);
    ok(await invokeUpdateSkill(catalog, { action: 'patch', skill: 'deploy', edits: [{ startLine: 8, newText: 'Ship it on Tuesdays.' }], reason: 'test' }));
    ok(await invokeUpdateSkill(catalog, { action: 'replace', skill: 'deploy', file: 'checklist.md', content: '- release notes\n', reason: 'test' }));
    const composed = JSON.stringify(await runtime.compose('s1', [{ role: 'user', content: 'deploy again' }]));
    assert.match(composed, /Ship it on Tuesdays\./);
    assert.match(composed, /- release notes/);
  });

  it('run_script runs the newest revision of an edited script, a script that exists only in the overlay, and unedited ones from the source', async () => {
    const w = makeWorld();
    const dir = writeSkill(w.plugin, 'deploy', { body: BODY, files: { 'scripts/ship.sh': 'echo "ship v1"\n', 'scripts/helper.sh': 'echo "helper from source"\n' } });
    const catalog = await openCatalog(w);
    const executor = createScriptRunner({ stateDir: path.join(w.stateDir, 'exec'), sandbox: 'off' });
    const runtime = createSkillsRuntime({ source: catalog.skillSource(), executor });
    await runtime.openSession('s1');
    await call(runtime, 'load', { names: ['deploy'] });
    const run = async (script: string) => (await call(runtime, 'run_script', { script })).stdout;
    assert.equal(await run('scripts/ship.sh'), 'ship v1\n');
    const home = (await call(runtime, 'run_script', { command: 'echo "$HOME"' })).stdout;

    ok(await invokeUpdateSkill(catalog, { action: 'replace', skill: 'deploy', file: 'scripts/ship.sh', content: 'echo "ship v2"; bash scripts/helper.sh\n', reason: 'test' }));
    ok(await invokeUpdateSkill(catalog, { action: 'replace', skill: 'deploy', file: 'scripts/new.sh', content: 'echo "only in the overlay"\n', reason: 'test' }));
    assert.equal(await run('scripts/ship.sh'), 'ship v2\nhelper from source\n');
    assert.equal(await run('scripts/new.sh'), 'only in the overlay\n');
    // A later revision is what the next run sees.
    ok(await invokeUpdateSkill(catalog, { action: 'replace', skill: 'deploy', file: 'scripts/ship.sh', content: 'echo "ship v3"\n', reason: 'test' }));
    assert.equal(await run('scripts/ship.sh'), 'ship v3\n');
    // The persistent home and dependency folders are the skill's, edited or not.
    ok(await invokeUpdateSkill(catalog, { action: 'replace', skill: 'deploy', file: 'scripts/other.sh', content: 'echo other\n', reason: 'test' }));
    assert.equal((await call(runtime, 'run_script', { command: 'echo "$HOME"' })).stdout, home);
    const listing = (await call(runtime, 'run_script', { command: 'ls scripts' })).stdout;
    assert.equal(listing, 'helper.sh\nnew.sh\nother.sh\nship.sh\n');
    assert.equal(fs.readFileSync(path.join(dir, 'scripts/ship.sh'), 'utf8'), 'echo "ship v1"\n', 'the plugin folder is untouched');
    assert.ok(!fs.existsSync(path.join(dir, 'scripts/new.sh')));
    await executor.idle();
  });

  it('list_docs, select_docs and load docs include a doc that exists only in the overlay', async () => {
    const { catalog, runtime } = await setup();
    ok(await invokeUpdateSkill(catalog, { action: 'replace', skill: 'deploy', file: 'references/rollback.md', content: '# Rollback\n\nRevert the tag.\n', reason: 'test' }));
    ok(await invokeUpdateSkill(catalog, { action: 'replace', skill: 'deploy', file: 'checklist.md', content: '- tests pass\n- more\n', reason: 'test' }));
    const listed = (await call(runtime, 'list_docs', { skill: 'deploy' })).docs as { path: string; size_bytes: number }[];
    assert.deepEqual(
      listed.map((d) => [d.path, d.size_bytes]),
      [
        ['checklist.md', Buffer.byteLength('- tests pass\n- more\n')],
        ['references/rollback.md', Buffer.byteLength('# Rollback\n\nRevert the tag.\n')],
      ],
    );
    await call(runtime, 'load', { names: ['deploy'], docs: ['references/rollback.md'] });
    assert.match(JSON.stringify(await runtime.compose('s1', [{ role: 'user', content: 'deploy' }])), /Revert the tag\./);
    await call(runtime, 'select_docs', { docs: ['checklist.md'], mode: 'replace' });
    const selected = (await call(runtime, 'list_docs', {})).docs as { path: string; selected: boolean }[];
    assert.deepEqual(selected.filter((d) => d.selected).map((d) => d.path), ['checklist.md']);
  });

  it('resolve keeps the typed errors: a tie between two plugins names both ids', async () => {
    const w = makeWorld();
    writeSkill(w.plugin, 'deploy');
    const other = path.join(w.base, 'ext2');
    writeSkill(other, 'deploy');
    const catalog = await SkillCatalog.open({ roots: [...w.roots, { path: other, scope: 'extension', source: 'beta.tools' }], stateDir: w.stateDir });
    const runtime = createSkillsRuntime({ source: catalog.skillSource() });
    await runtime.openSession('s1');
    const r = await runtime.invoke('load', { names: ['deploy'] }, { sessionId: 's1' });
    assert.equal(r.ok, false);
    assert.match(JSON.stringify(r), /plugin:acme\.tools:deploy/);
    assert.match(JSON.stringify(r), /plugin:beta\.tools:deploy/);
  });
});
