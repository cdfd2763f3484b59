// The index kept in line with a real registry over temp folders: an edit re-indexes that skill only, a removed
// skill is never returned, bodies are read through the host; and the runtime's <available_skills> uses it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CatalogIndex, bodyOf, hostBodyReader } from '../../../src/core/index';
import { localDisk } from '../../../src/core/host/localDisk';
import { createSkillRegistry } from '../../../src/core/registry';
import { skillSourceOf } from '../../../src/core/runtime/registrySource';
import { createSkillsRuntime } from '../../../src/core/runtime/skillsRuntime';
import { makeTempDir } from '../../support/tempDir';
import { previewText } from '../../../src/extension/playground/previewText';
import { o200kCounter } from '../../../src/core/prompt';

function write(root: string, folder: string, description: string, body = `# ${folder}\n`): void {
  fs.mkdirSync(path.join(root, folder), { recursive: true });
  fs.writeFileSync(path.join(root, folder, 'SKILL.md'), `---\nname: ${folder}\ndescription: ${JSON.stringify(description)}\n---\n${body}`);
}

describe('core/index: the catalog index over a registry', () => {
  let tmp: { dir: string; cleanup: () => void };
  beforeEach(() => (tmp = makeTempDir('catalog-index-')));
  afterEach(() => tmp.cleanup());

  it('strips the frontmatter to get the body', () => {
    assert.equal(bodyOf('---\nname: a\n---\n# Body\ntext'), '# Body\ntext');
    assert.equal(bodyOf('no frontmatter'), 'no frontmatter');
    assert.equal(bodyOf('---\nunclosed: yes\n'), '');
  });

  it('indexes bodies through the host, re-indexes only the edited skill, and never returns a removed one', async () => {
    const root = path.join(tmp.dir, 'skills');
    for (let i = 0; i < 20; i++) write(root, `filler-${i}`, `Does filler task ${i}.`);
    write(root, 'seismic', 'Reads sensor traces.', '# Steps\nDetect the seismograph anomaly with obspy.\n');
    const registry = createSkillRegistry({ roots: [{ path: root, scope: 'user' }] });
    await registry.refresh();
    const catalog = new CatalogIndex(hostBodyReader(localDisk));
    assert.deepEqual(await catalog.sync(registry.usable()), { added: 21, changed: 0, removed: 0 });
    assert.equal(catalog.index.search('obspy seismograph', 1)[0].id, 'user:seismic', 'a body-only word finds the skill');
    // Nothing changed: nothing is read again.
    await registry.refresh();
    assert.deepEqual(await catalog.sync(registry.usable()), { added: 0, changed: 0, removed: 0 });
    // One skill edited.
    const file = path.join(root, 'filler-3', 'SKILL.md');
    fs.writeFileSync(file, '---\nname: filler-3\ndescription: Transcribes podcasts into subtitles.\n---\n');
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
    await registry.refresh();
    assert.deepEqual(await catalog.sync(registry.usable()), { added: 0, changed: 1, removed: 0 });
    assert.equal(catalog.index.search('podcast subtitles', 1)[0].id, 'user:filler-3');
    // One removed.
    fs.rmSync(path.join(root, 'seismic'), { recursive: true });
    await registry.refresh();
    assert.deepEqual(await catalog.sync(registry.usable()), { added: 0, changed: 0, removed: 1 });
    assert.deepEqual(catalog.index.search('obspy seismograph anomaly'), []);
  });

  it("chooses the runtime's <available_skills> by the request and points to find_skills when the catalog does not fit", async () => {
    const root = path.join(tmp.dir, 'skills');
    for (let i = 0; i < 80; i++) write(root, `tool-${String(i).padStart(2, '0')}`, `Handles chore number ${i} of the weekly maintenance list, in detail, with checks.`);
    write(root, 'zz-obscure', "Converts seismograph traces; it's the one for obspy.", '# Body\nobspy\n');
    const registry = createSkillRegistry({ roots: [{ path: root, scope: 'user' }] });
    await registry.refresh();
    const runtime = createSkillsRuntime({ source: skillSourceOf(registry), catalogBudget: { maxTokens: 600 } });
    await runtime.beginTurn('s', 'convert these seismograph traces');
    const call = await runtime.compose('s', [{ role: 'user', content: 'convert these seismograph traces' }]);
    assert.ok(call.catalog.shown.includes('zz-obscure'), `the matching skill is listed: ${call.catalog.shown.join(', ')}`);
    assert.ok(call.catalog.omitted > 0);
    assert.match(call.sections.catalog, /more skills are installed but not listed here\. Search them with find_skills \(the task in your own words\) before working without a skill/);
    assert.match(call.sections.catalog, /it's the one for obspy/, 'apostrophes are not entities');
    // Preview Prompt explains each listed skill and the first ones left out (plain text, no VS Code).
    const session = runtime.sessions.get('s');
    assert.ok(session);
    const text = previewText({
      request: 'convert these seismograph traces',
      session,
      sessionLabel: 's',
      isNewSession: true,
      composed: call,
      messages: [],
      tools: [],
      records: registry.snapshot().records,
      settings: { placement: 'instructions', toolSurface: 'standard', catalogMaxTokens: 600, catalogMaxChars: 16000, maxLoadedSkills: 5 },
      models: [],
      turnErrors: [],
      trusted: true,
      generatedAt: new Date(0),
      counter: o200kCounter,
    });
    assert.match(text, /1\. zz-obscure: shown; score [0-9.]+: .*"seismograph" \(description 1\)/);
    assert.match(text, /: left out: it did not fit the budget \(600 tokens/);
    assert.match(text, /… and \d+ more left out, ranked lower/);
  });

  it('the runtime saves its index in the state folder, and a restarted runtime puts the skills back unread', async () => {
    const root = path.join(tmp.dir, 'skills');
    for (let i = 0; i < 30; i++) write(root, `tool-${i}`, `Handles chore ${i}.`, `# Chore ${i}\nSteps for chore ${i}.\n`);
    write(root, 'seismic', 'Reads sensor traces.', '# Steps\nDetect the seismograph anomaly with obspy.\n');
    const stateDir = path.join(tmp.dir, 'state');
    const start = async () => {
      const registry = createSkillRegistry({ roots: [{ path: root, scope: 'user' }] });
      await registry.refresh();
      const runtime = createSkillsRuntime({ source: skillSourceOf(registry), stateDir, audit: false, catalogBudget: { maxTokens: 200 } });
      await runtime.beginTurn('s', 'obspy seismograph');
      return runtime.compose('s', [{ role: 'user', content: 'obspy seismograph' }]);
    };
    const first = await start();
    assert.ok(first.catalog.shown.includes('seismic'));
    const file = path.join(stateDir, 'skill-index.bin');
    assert.ok(fs.existsSync(file), 'the index is saved after the first compose');
    // The second start reads the saved index: a body found only there still ranks the skill first.
    const saved = fs.statSync(file).mtimeMs;
    const second = await start();
    assert.deepEqual(second.catalog.shown, first.catalog.shown);
    assert.equal(fs.statSync(file).mtimeMs, saved, 'nothing was read again, so nothing is saved again');
  });
});
