// The index follows a source's change feed: after an edit only that skill is read (counted through a host
// wrapper) and the source's list is not walked; a removed or newly shadowed skill is never returned; a source
// without a feed, or a cursor the source does not know, falls back to comparing the whole list.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CatalogIndex, hostBodyReader, type IndexSource } from '../../../src/core/index';
import { localDisk } from '../../../src/core/host/localDisk';
import { createSkillRegistry, type SkillRegistry } from '../../../src/core/registry';
import { ChangeLog } from '../../../src/core/registry/changeLog';
import { skillSourceOf } from '../../../src/core/runtime/registrySource';
import { createSkillsRuntime } from '../../../src/core/runtime/skillsRuntime';
import { SkillCatalog } from '../../../src/core/catalog/skillCatalog';
import { makeTempDir } from '../../support/tempDir';

function write(root: string, folder: string, description: string, body = `# ${folder}\n`): string {
  fs.mkdirSync(path.join(root, folder), { recursive: true });
  const file = path.join(root, folder, 'SKILL.md');
  fs.writeFileSync(file, `---\nname: ${folder}\ndescription: ${JSON.stringify(description)}\n---\n${body}`);
  // A stamp the registry cannot mistake for the previous one (same size within the same second).
  fs.utimesSync(file, new Date(), new Date(Date.now() + Math.floor(Math.random() * 1e6) * 1000));
  return file;
}

/** The host, with every file read noted. */
function countingHost(reads: string[]): typeof localDisk {
  return { ...localDisk, readFile: (p, o) => (reads.push(p), localDisk.readFile(p, o)) };
}

/** The source, with every call of list() counted. */
function countingList<T extends IndexSource>(source: T, calls: { list: number }): T {
  return { ...source, list: () => (calls.list++, source.list()) };
}

const QUERIES = ['podcast subtitles', 'filler task', 'obspy seismograph anomaly', 'weather forecast', 'chore 7'];
const results = (c: CatalogIndex) => QUERIES.map((q) => c.index.search(q, 10).map((r) => `${r.id} ${r.score.toFixed(6)}`));

describe('core/index: the catalog index follows the source change feed', () => {
  let tmp: { dir: string; cleanup: () => void };
  let root: string;
  let registry: SkillRegistry;
  beforeEach(async () => {
    tmp = makeTempDir('catalog-changes-');
    root = path.join(tmp.dir, 'user');
    for (let i = 0; i < 30; i++) write(root, `filler-${i}`, `Does filler task ${i}, chore ${i}.`);
    write(root, 'seismic', 'Reads sensor traces.', '# Steps\nDetect the seismograph anomaly with obspy.\n');
    registry = createSkillRegistry({ roots: [{ path: root, scope: 'user' }] });
    await registry.refresh();
  });
  afterEach(() => tmp.cleanup());

  it('after one edit reads only that skill and does not walk the list', async () => {
    const reads: string[] = [];
    const calls = { list: 0 };
    const source = countingList(skillSourceOf(registry), calls);
    const catalog = new CatalogIndex(hostBodyReader(countingHost(reads)));
    assert.deepEqual(await catalog.syncFrom(source), { added: 31, changed: 0, removed: 0 });
    assert.equal(reads.length, 31);
    assert.equal(calls.list, 1, 'the first sync reads the whole list');
    reads.length = 0;
    assert.deepEqual(await catalog.syncFrom(source), { added: 0, changed: 0, removed: 0 });
    assert.deepEqual([reads.length, calls.list], [0, 1], 'nothing changed: nothing read, no walk');

    const file = write(root, 'filler-3', 'Transcribes podcasts into subtitles.');
    await registry.refresh();
    assert.deepEqual(await catalog.syncFrom(source), { added: 0, changed: 1, removed: 0 });
    assert.deepEqual(reads, [file], 'only the edited SKILL.md is read');
    assert.equal(calls.list, 1, 'the list is not walked after an edit');
    assert.equal(catalog.index.search('podcast subtitles', 1)[0].id, 'user:filler-3');
    assert.ok(!catalog.index.search('chore', 50).some((r) => r.id === 'user:filler-3'), 'the old description is forgotten');

    // The index is the one a fresh full build of the same skills gives.
    const fresh = new CatalogIndex(hostBodyReader(localDisk));
    await fresh.sync(registry.usable());
    assert.deepEqual(results(catalog), results(fresh));
  });

  it('never returns a removed skill, nor one a higher-precedence skill now shadows', async () => {
    const reads: string[] = [];
    const calls = { list: 0 };
    const source = countingList(skillSourceOf(registry), calls);
    const catalog = new CatalogIndex(hostBodyReader(countingHost(reads)));
    await catalog.syncFrom(source);
    assert.equal(catalog.index.search('obspy seismograph', 1)[0]?.id, 'user:seismic');

    fs.rmSync(path.join(root, 'seismic'), { recursive: true });
    await registry.refresh();
    reads.length = 0;
    assert.deepEqual(await catalog.syncFrom(source), { added: 0, changed: 0, removed: 1 });
    assert.deepEqual(catalog.index.search('obspy seismograph anomaly'), [], 'the removed skill is gone');
    assert.deepEqual([reads.length, calls.list], [0, 1]);

    // A workspace skill of the same name wins: the user one leaves the usable list, the workspace one enters it.
    const ws = path.join(tmp.dir, 'ws');
    write(ws, 'filler-5', 'Forecasts the weather for a city.');
    registry.setRoots([{ path: root, scope: 'user' }, { path: ws, scope: 'workspace' }]);
    await registry.refresh();
    assert.equal(registry.recordOf('user:filler-5')?.status, 'shadowed');
    assert.deepEqual(await catalog.syncFrom(source), { added: 1, changed: 0, removed: 1 });
    assert.deepEqual(reads, [path.join(ws, 'filler-5', 'SKILL.md')]);
    assert.ok(!catalog.index.search('filler task 5 chore 5', 50).some((r) => r.id === 'user:filler-5'), 'the shadowed skill is never returned');
    assert.equal(catalog.index.search('weather forecast', 1)[0].id, 'workspace:filler-5');
    const fresh = new CatalogIndex(hostBodyReader(localDisk));
    await fresh.sync(registry.usable());
    assert.deepEqual(results(catalog), results(fresh));
  });

  it('compares the whole list when the source has no feed or does not know the cursor', async () => {
    const calls = { list: 0 };
    const plain = countingList<IndexSource>({ list: () => registry.usable() }, calls);
    const catalog = new CatalogIndex(hostBodyReader(localDisk));
    await catalog.syncFrom(plain);
    write(root, 'filler-9', 'Transcribes podcasts into subtitles.');
    await registry.refresh();
    assert.deepEqual(await catalog.syncFrom(plain), { added: 0, changed: 1, removed: 0 });
    assert.equal(calls.list, 2, 'without a feed every sync walks the list');

    // Another source over the same registry: its feed refuses the first one's cursor, so this sync walks.
    const other = countingList(skillSourceOf(registry), calls);
    await catalog.syncFrom(skillSourceOf(registry));
    fs.rmSync(path.join(root, 'filler-9'), { recursive: true });
    await registry.refresh();
    calls.list = 0;
    assert.deepEqual(await catalog.syncFrom(other), { added: 0, changed: 0, removed: 1 });
    assert.equal(calls.list, 1);
    assert.ok(!catalog.index.search('podcast subtitles', 50).some((r) => r.id === 'user:filler-9'));
    // A plain sync(list) forgets the cursor: the next syncFrom walks again.
    await catalog.sync(registry.usable());
    calls.list = 0;
    await catalog.syncFrom(other);
    assert.equal(calls.list, 1);
  });

  it("follows the catalog's list: an edit reads one skill, archiving walks once, an archived skill is never returned", async () => {
    const ext = path.join(tmp.dir, 'ext');
    write(ext, 'tides', 'Predicts ocean tides for a harbour.');
    write(ext, 'filler-4', 'Forecasts the weather for a city.');
    const catalog = await SkillCatalog.open({ roots: [{ path: root, scope: 'user' }, { path: ext, scope: 'extension', source: 'acme.ext' }], stateDir: path.join(tmp.dir, 'state') });
    const reads: string[] = [];
    const calls = { list: 0 };
    const source = countingList(catalog.skillSource(), calls);
    const index = new CatalogIndex(hostBodyReader(countingHost(reads)));
    await index.syncFrom(source);
    const fresh = async () => {
      const f = new CatalogIndex(hostBodyReader(localDisk));
      await f.sync(catalog.skillSource().list());
      return results(f);
    };
    assert.deepEqual(results(index), await fresh());

    // A rescan of the whole catalog (registry and its own state) after one edit: one read, no walk.
    const file = write(root, 'filler-3', 'Transcribes podcasts into subtitles.');
    await catalog.refresh();
    reads.length = 0;
    calls.list = 0;
    assert.deepEqual(await index.syncFrom(source), { added: 0, changed: 1, removed: 0 });
    assert.deepEqual([reads, calls.list], [[file], 0]);
    assert.deepEqual(results(index), await fresh());

    // The user's filler-4 leaves: the extension's one (shadowed until now) enters the list.
    fs.rmSync(path.join(root, 'filler-4'), { recursive: true });
    await catalog.refresh();
    reads.length = 0;
    assert.deepEqual(await index.syncFrom(source), { added: 1, changed: 0, removed: 1 });
    assert.deepEqual([reads, calls.list], [[path.join(ext, 'filler-4', 'SKILL.md')], 0]);
    assert.equal(index.index.search('weather forecast', 1)[0].id, 'plugin:acme.ext:filler-4');

    // Archiving changes the catalog's own state: that sync compares the whole list once, then the feed resumes.
    await catalog.setHidden('plugin:acme.ext:tides', true);
    assert.deepEqual(await index.syncFrom(source), { added: 0, changed: 0, removed: 1 });
    assert.equal(calls.list, 1);
    assert.ok(!index.index.search('ocean tides harbour', 50).some((r) => r.id === 'plugin:acme.ext:tides'), 'an archived skill is never returned');
    await catalog.refresh();
    assert.deepEqual(await index.syncFrom(source), { added: 0, changed: 0, removed: 0 });
    assert.equal(calls.list, 1, 'an unchanged hidden list and no overlays keep the feed');
    assert.deepEqual(results(index), await fresh());
  });

  it('settles again every skill of a touched name: a tie behind an archived skill leaves the list', async () => {
    // Registry: the extension's `dup` shadows both packs' `dup`, so adding the second one changes no status there.
    // Catalog: the extension's is archived, so the first pack's `dup` was listed and now ties with the second.
    const [ext, p1, p2] = ['ext', 'p1', 'p2'].map((d) => path.join(tmp.dir, d));
    write(ext, 'dup', 'Extension copy of the duplicate.');
    write(p1, 'dup', 'First pack copy of the duplicate.');
    fs.mkdirSync(p2);
    const roots = [{ path: ext, scope: 'extension', source: 'acme.ext' }, { path: p1, scope: 'pack', source: 'one' }, { path: p2, scope: 'pack', source: 'two' }];
    const catalog = await SkillCatalog.open({ roots, stateDir: path.join(tmp.dir, 'state') });
    await catalog.setHidden('plugin:acme.ext:dup', true);
    const calls = { list: 0 };
    const source = countingList(catalog.skillSource(), calls);
    const index = new CatalogIndex(hostBodyReader(localDisk));
    await index.syncFrom(source);
    assert.equal(index.index.search('first pack copy duplicate', 1)[0]?.id, 'pack:one:dup');
    write(p2, 'dup', 'Second pack copy of the duplicate.');
    await catalog.refresh();
    assert.equal(catalog.registry.recordOf('pack:one:dup')?.status, 'shadowed');
    calls.list = 0;
    const change = await index.syncFrom(source);
    assert.equal(calls.list, 0, 'the feed answered');
    assert.deepEqual(change, { added: 0, changed: 0, removed: 1 });
    assert.deepEqual(index.index.search('pack copy duplicate', 50), [], 'two tied skills are neither listed nor returned');
  });

  it("the runtime's index reads only the edited skill through its host", async () => {
    const reads: string[] = [];
    const runtime = createSkillsRuntime({ source: skillSourceOf(registry), files: countingHost(reads), audit: false });
    await runtime.index();
    const file = write(root, 'filler-7', 'Transcribes podcasts into subtitles.');
    await registry.refresh();
    reads.length = 0;
    const index = await runtime.index();
    assert.deepEqual(reads, [file]);
    assert.equal(index.search('podcast subtitles', 1)[0].id, 'user:filler-7');
  });

  it('the change log answers only for generations it still holds', () => {
    const log = new ChangeLog();
    for (let g = 1; g <= 70; g++) log.note(g, [`s${g}`, 's0'], [`n${g % 2}`]);
    assert.deepEqual(log.since(70, 70), { ids: [], names: [] });
    assert.deepEqual(log.since(67, 70), { ids: ['s68', 's0', 's69', 's70'], names: ['n0', 'n1'] });
    assert.equal(log.since(3, 70), undefined, 'older than the 64 generations kept');
    assert.equal(log.since(71, 70), undefined, 'a generation from the future');
    assert.equal(log.since(1.5, 70), undefined);
  });
});
