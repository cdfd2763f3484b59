import * as assert from 'node:assert/strict';
import { inputJsonSchema } from '../../../src/core/runtime/inputJsonSchema';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as tar from 'tar';
import {
  invokeRunSkill,
  invokeUpdateSkill,
  minimalToolGuidance,
  runSkillInputSchema,
  substituteArguments,
  toolFamilies,
  updateSkillInputSchema,
  type InspectResult,
  type ListResult,
  type RunResult,
  type SessionLoader,
} from '../../../src/core/catalog';
import { failed, makeWorld, ok, openCatalog, tempDir, writeSkill } from './catalogTestUtil';
import { skillPacks } from '../../../src/core/sourceReaders';

async function makePack(skills: Record<string, string>): Promise<string> {
  const src = tempDir('pack-src-');
  for (const name of Object.keys(skills)) writeSkill(path.join(src, 'demo-pack'), name, { body: skills[name] });
  const file = path.join(tempDir('pack-archive-'), 'demo-pack.tar.gz');
  await tar.create({ gzip: true, file, cwd: src, portable: true }, ['demo-pack']);
  return file;
}

describe('catalog: sources, resolution, list and run', () => {
  it('resolves bare names by precedence and ids exactly; a tie fails listing both ids', async () => {
    const w = makeWorld();
    writeSkill(w.workspace, 'pdf');
    writeSkill(w.user, 'pdf');
    writeSkill(w.plugin, 'pdf');
    const other = path.join(w.base, 'ext2');
    writeSkill(other, 'csv');
    writeSkill(w.plugin, 'csv');
    const catalog = await openCatalog({ ...w, roots: [...w.roots, { path: other, scope: 'extension', source: 'beta.ext' }] });
    assert.equal(catalog.resolve('pdf').id, 'workspace:pdf');
    assert.equal(catalog.resolve('plugin:acme.tools:pdf').id, 'plugin:acme.tools:pdf');
    const e = failed(await invokeRunSkill(catalog, { action: 'inspect', skill: 'csv' }));
    assert.equal(e.code, 'ambiguous');
    assert.deepEqual([...(e.details!.ids as string[])].sort(), ['plugin:acme.tools:csv', 'plugin:beta.ext:csv']);
    assert.match(e.message, /plugin:acme\.tools:csv/);
    assert.match(e.message, /plugin:beta\.ext:csv/);
    ok(await invokeRunSkill(catalog, { action: 'inspect', skill: 'plugin:beta.ext:csv' }));
    const nf = failed(await invokeRunSkill(catalog, { action: 'run', skill: 'pdff' }));
    assert.equal(nf.code, 'not_found');
    assert.match(nf.message, /pdf/);
  });

  it('lists compact entries with source, query and limit filters, saying how many more matched', async () => {
    const w = makeWorld();
    writeSkill(w.workspace, 'alpha', { description: 'Handles spreadsheets. Use for xlsx.' });
    writeSkill(w.workspace, 'beta', { description: 'Handles slides. Use for pptx.' });
    writeSkill(w.plugin, 'gamma', { description: 'Handles spreadsheets in the cloud.' });
    const catalog = await openCatalog(w);
    const all = ok(await invokeRunSkill(catalog, { action: 'list' })) as unknown as ListResult;
    assert.deepEqual(all.skills.map((s) => s.id), ['workspace:alpha', 'workspace:beta', 'plugin:acme.tools:gamma']);
    assert.equal(all.skills[2].readOnlySource, true);
    const q = ok(await invokeRunSkill(catalog, { action: 'list', query: 'SPREADSHEETS' })) as unknown as ListResult;
    assert.deepEqual(q.skills.map((s) => s.name), ['alpha', 'gamma']);
    const src = ok(await invokeRunSkill(catalog, { action: 'list', source: 'plugin' })) as unknown as ListResult;
    assert.deepEqual(src.skills.map((s) => s.name), ['gamma']);
    const lim = ok(await invokeRunSkill(catalog, { action: 'list', limit: 1 })) as unknown as ListResult;
    assert.equal(lim.skills.length, 1);
    assert.equal(lim.total, 3);
    assert.equal(lim.more, 2);
    assert.equal(failed(await invokeRunSkill(catalog, { action: 'list', activeOnly: true })).code, 'invalid_input');
    const sessions: SessionLoader = { loadIntoSession: async () => undefined, activeSkills: () => ['workspace:beta'] };
    const act = ok(await invokeRunSkill(catalog, { action: 'list', activeOnly: true }, { sessionId: 's1' }, { sessions })) as unknown as ListResult;
    assert.deepEqual(act.skills.map((s) => s.id), ['workspace:beta']);
    assert.equal(failed(await invokeRunSkill(catalog, { action: 'list', bogus: 1 })).code, 'invalid_input');
  });

  it('run loads into the session and returns full instructions, parameters and files; disable-model-invocation blocks', async () => {
    const w = makeWorld();
    const long = 'x'.repeat(300_000);
    writeSkill(w.workspace, 'greet', { body: `# Greet\n\nGreet $0 from $1 ($ARGUMENTS). Missing: $2.\n${long}\n`, files: { 'scripts/run.sh': 'echo hi\n' } });
    writeSkill(w.workspace, 'manual', { text: '---\nname: manual\ndescription: Only by hand. Use when the user types /manual.\ndisable-model-invocation: true\n---\n\nDo it.\n' });
    const catalog = await openCatalog(w);
    const loads: string[] = [];
    const sessions: SessionLoader = { loadIntoSession: async (sid, id) => void loads.push(`${sid}:${id}`) };
    const r = ok(await invokeRunSkill(catalog, { action: 'run', skill: 'greet', arguments: 'Ada "the lab"' }, { sessionId: 's1' }, { sessions })) as unknown as Extract<RunResult, { status: 'ready' }>;
    assert.equal(r.status, 'ready');
    assert.equal(r.loaded, true);
    assert.deepEqual(loads, ['s1:workspace:greet']);
    assert.ok(r.instructions.startsWith('# Greet\n\nGreet Ada from the lab (Ada "the lab"). Missing: $2.\n'));
    assert.ok(r.instructions.includes(long), 'instructions are never truncated');
    assert.deepEqual(r.parameters.positional, ['Ada', 'the lab']);
    assert.deepEqual(r.parameters.unresolved, ['$2']);
    assert.deepEqual(r.files, ['SKILL.md', 'scripts/run.sh']);
    const b = ok(await invokeRunSkill(catalog, { action: 'run', skill: 'manual' }, { sessionId: 's1' }, { sessions })) as unknown as Extract<RunResult, { status: 'blocked' }>;
    assert.equal(b.status, 'blocked');
    assert.match(b.reason, /disable-model-invocation: true/);
    assert.equal(loads.length, 1, 'a blocked skill is not loaded');
  });

  it('substitutes $ARGUMENTS[N] and appends ARGUMENTS when the body has no placeholder', () => {
    assert.equal(substituteArguments('Use $ARGUMENTS[1] then $0.', ['a', 'b c']).text, 'Use b c then a.');
    const r = substituteArguments('No placeholders.\n', 'one two');
    assert.equal(r.text, 'No placeholders.\n\nARGUMENTS: one two\n');
    assert.equal(r.resolved.appended, true);
    assert.equal(substituteArguments('Cost $5 and $ARGUMENTS_X', undefined).text, 'Cost $5 and $ARGUMENTS_X');
  });

  it('serves pack skills from the cache and edits them through the overlay; the archive stays untouched', async () => {
    const w = makeWorld();
    const archive = await makePack({ charts: '# Charts\n\nDraw bars.\n', maps: '# Maps\n\nDraw maps.\n' });
    const catalog = await openCatalog(w, [{ source: archive }]);
    const list = ok(await invokeRunSkill(catalog, { action: 'list', source: 'pack' })) as unknown as ListResult;
    assert.deepEqual(list.skills.map((s) => s.id), ['pack:demo-pack:charts', 'pack:demo-pack:maps']);
    const before = ok(await invokeRunSkill(catalog, { action: 'inspect', skill: 'charts' })) as unknown as InspectResult;
    assert.ok(before.skill.skillDir.startsWith(path.join(w.stateDir, 'packs')), before.skill.skillDir);
    const sourceFile = path.join(before.skill.skillDir, 'SKILL.md');
    const sourceBytes = fs.readFileSync(sourceFile);
    const r = ok(await invokeUpdateSkill(catalog, { action: 'patch', skill: 'pack:demo-pack:charts', diff: '@@ -1,3 +1,3 @@\n # Charts\n \n-Draw bars.\n+Draw bars and lines.\n', expectedVersionRef: before.versionRef }));
    assert.ok('target' in r && r.target === 'overlay');
    assert.deepEqual(fs.readFileSync(sourceFile), sourceBytes, 'the pack source is read-only');
    const after = ok(await invokeRunSkill(catalog, { action: 'inspect', skill: 'charts', history: true })) as unknown as InspectResult;
    assert.match(after.content!, /Draw bars and lines\./);
    assert.equal(after.skill.fromOverlay, true);
    assert.deepEqual(after.history!.map((h) => h.reason), ['seed: source content before the first overlay edit', 'patch']);
    const run = ok(await invokeRunSkill(catalog, { action: 'run', skill: 'charts' })) as unknown as Extract<RunResult, { status: 'ready' }>;
    assert.match(run.instructions, /Draw bars and lines\./);
    assert.equal(catalog.skillSource().resolve('charts')?.location, path.join(catalog.overlayDir('pack:demo-pack:charts'), 'SKILL.md'));
    // a reopened catalog (same state dir) serves the cached pack and the newest revision
    const packs = skillPacks([{ source: archive }]);
    const again = await openCatalog(w, packs);
    assert.equal(packs.mounted()[0].installed.cached.extraction, true);
    assert.match((ok(await invokeRunSkill(again, { action: 'inspect', skill: 'charts' })) as unknown as InspectResult).content!, /Draw bars and lines\./);
    // restoring revision 1 brings the original back (through the overlay)
    ok(await invokeUpdateSkill(again, { action: 'restore', skill: 'charts', revision: 1 }));
    assert.match((ok(await invokeRunSkill(again, { action: 'inspect', skill: 'charts' })) as unknown as InspectResult).content!, /Draw bars\.\n/);
    // archiving a pack skill hides it; restore shows it again
    ok(await invokeUpdateSkill(again, { action: 'archive', skill: 'maps' }));
    assert.equal(failed(await invokeRunSkill(again, { action: 'run', skill: 'maps' })).code, 'not_found');
    ok(await invokeUpdateSkill(again, { action: 'restore', skill: 'maps' }));
    ok(await invokeRunSkill(again, { action: 'run', skill: 'maps' }));
  });

  it('edits a plugin skill through the overlay and copies it into the workspace', async () => {
    const w = makeWorld();
    const dir = writeSkill(w.plugin, 'lint', { body: '# Lint\n\nRun the linter.\n' });
    const original = fs.readFileSync(path.join(dir, 'SKILL.md'), 'utf8');
    const catalog = await openCatalog(w);
    ok(await invokeUpdateSkill(catalog, { action: 'metadata', skill: 'lint', fields: { description: 'Lints code. Use before commits.' } }));
    assert.equal(fs.readFileSync(path.join(dir, 'SKILL.md'), 'utf8'), original);
    assert.equal(catalog.resolve('lint').description, 'Lints code. Use before commits.');
    const c = ok(await invokeUpdateSkill(catalog, { action: 'copy', skill: 'lint', toScope: 'workspace' }));
    assert.ok('origin' in c && c.origin?.skillId === 'plugin:acme.tools:lint');
    assert.match(fs.readFileSync(path.join(w.workspace, 'lint', 'SKILL.md'), 'utf8'), /description: Lints code\. Use before commits\./);
    assert.equal(catalog.resolve('lint').id, 'workspace:lint', 'the copy now wins by precedence');
  });

  it('exposes JSON Schemas and the minimal tool surface guidance', () => {
    assert.equal(inputJsonSchema(runSkillInputSchema).type, 'object');
    assert.deepEqual((inputJsonSchema(runSkillInputSchema).properties as Record<string, { enum?: string[] }>).action.enum, ['list', 'inspect', 'run']);
    assert.deepEqual((inputJsonSchema(updateSkillInputSchema).properties as Record<string, { enum?: string[] }>).action.enum, ['create', 'patch', 'replace', 'metadata', 'copy', 'archive', 'restore']);
    const g = minimalToolGuidance();
    assert.match(g, /runSkill/);
    assert.match(g, /updateSkill/);
    for (const t of ['load', 'unload', 'read', 'run_script', 'list_docs', 'select_docs']) assert.doesNotMatch(g, new RegExp(`\\b${t}\\b`), t);
    assert.deepEqual(toolFamilies('minimal'), { standard: false, catalog: true });
    assert.deepEqual(toolFamilies('both'), { standard: true, catalog: true });
    assert.deepEqual(toolFamilies('standard'), { standard: true, catalog: false });
  });
});
