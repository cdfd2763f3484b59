import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createSkillRegistry } from '../../../src/core/registry';
import { allSources, registerSourceKind, SOURCE_KINDS, sourceForScopeWord, sourceOf, type SourceKind } from '../../../src/core/sources';
import { schemas } from '../../../src/extension/settingsSchema';
import { REPO, sourceFiles, withoutComments } from '../../support/sourceFiles';
import { openCatalog, makeWorld, writeSkill } from '../catalog/catalogTestUtil';

/** A kind this test file adds, the way the plugin or MCP source will: one value plus its registration. */
const fakeSource: SourceKind = {
  name: 'fake',
  rank: 1.5,
  readOnly: true,
  label: 'Fakes',
  idPrefix: 'fakeid',
  idHasSource: true,
  scopeWord: 'fakeword',
  inWorkspace: false,
};

describe('source kinds', () => {
  it('keeps the built-in kinds with the ids, labels and words of the first release', () => {
    assert.deepEqual(
      allSources().map((k) => [k.name, k.idPrefix, k.scopeWord, k.label, k.readOnly]),
      [
        ['workspace', 'workspace', 'project', 'Workspace', false],
        ['user', 'user', 'user', 'User', false],
        ['agent-plugin', 'plugin', 'agent-plugin', 'Plugins', true],
        ['extension', 'plugin', 'plugin', 'Extensions', true],
        ['pack', 'pack', 'pack', 'Packs', true],
        ['mcp', 'mcp', 'mcp', 'MCP servers', true],
      ],
    );
    assert.equal(sourceForScopeWord('project'), sourceOf('workspace'));
  });

  it('defines each kind once: its line in the kinds table, and no other file of src/ or server/ states a precedence or scope word', () => {
    assert.deepEqual(allSources(), SOURCE_KINDS, 'the registry knows exactly the table, in its order, with nothing loaded first');
    // A kind's description written out anywhere else (a second list of names and precedence) has a literal rank or scope word.
    const described = /\brank\s*:\s*[0-9]|\bscopeWord\s*:\s*['"]/;
    const holders = [...sourceFiles('src'), ...sourceFiles('server')]
      .filter((f) => described.test(withoutComments(fs.readFileSync(f, 'utf8'))))
      .map((f) => path.relative(REPO, f).split(path.sep).join('/'));
    assert.deepEqual(holders, ['src/core/sources/sourceKinds.ts']);
    assert.ok(described.test("export const shelfKind = { name: 'shelf', rank: 3.5 };"), 'the scan sees a kind described elsewhere');
  });

  it('reads the scope words users write in agentSkills.extraRoots as kinds (`project` is the workspace)', () => {
    const roots = schemas.extraRoots.parse(['/a', { path: '/b', scope: 'project' }, { path: '/c', scope: 'plugin' }, { path: '/d' }]);
    assert.deepEqual(roots.map((r) => r.scope), ['user', 'workspace', 'extension', 'user']);
    assert.equal(schemas.extraRoots.safeParse([{ path: '/e', scope: 'workspace' }]).success, false, 'the setting keeps its documented words');
  });

  it('refuses an unknown kind by name, listing the known ones', () => {
    assert.throws(() => sourceOf('project'), /Unknown skill source kind 'project': known kinds are workspace, user, agent-plugin, extension, pack, mcp/);
  });

  it('refuses a kind whose name, id prefix or scope word is taken', () => {
    assert.throws(() => registerSourceKind({ ...fakeSource, idPrefix: 'user' }), /its idPrefix 'user' is taken by the kind 'user'/);
    assert.throws(() => registerSourceKind({ ...fakeSource, idPrefix: 'plugin', idHasSource: false }), /its idPrefix 'plugin' is taken by the kind 'agent-plugin'/);
    assert.throws(() => registerSourceKind({ ...fakeSource, name: 'user' }), /its name 'user' is taken by the kind 'user'/);
    assert.throws(() => registerSourceKind({ ...fakeSource, scopeWord: 'project' }), /its scopeWord 'project' is taken by the kind 'workspace'/);
    assert.equal(allSources().length, 6, 'a refused kind is not half-registered');
  });

  describe('a kind registered from a test file', () => {
    let registration: { dispose(): void };
    beforeEach(() => (registration = registerSourceKind(fakeSource)));
    afterEach(() => registration.dispose());

    it('is listed in precedence order and goes away when disposed', () => {
      assert.deepEqual(allSources().map((k) => k.name), ['workspace', 'user', 'fake', 'agent-plugin', 'extension', 'pack', 'mcp']);
      registration.dispose();
      assert.equal(allSources().some((k) => k.name === 'fake'), false);
      registration = registerSourceKind(fakeSource);
    });

    it('ranks its skills between user and extension skills in the registry, with its own ids', async () => {
      const w = makeWorld();
      const fake = path.join(w.base, 'fake');
      fs.mkdirSync(fake);
      writeSkill(w.user, 'shared');
      writeSkill(fake, 'shared');
      writeSkill(fake, 'mine');
      writeSkill(w.plugin, 'mine');
      const registry = createSkillRegistry({ roots: [...w.roots, { path: fake, scope: 'fake', source: 'src1' }] });
      const records = (await registry.refresh()).records;
      const status = Object.fromEntries(records.map((r) => [r.id, r.status]));
      assert.deepEqual(status, {
        'user:shared': 'ok',
        'fakeid:src1:shared': 'shadowed',
        'fakeid:src1:mine': 'ok',
        'plugin:acme.tools:mine': 'shadowed',
      });
      assert.equal(records.find((r) => r.id === 'fakeid:src1:mine')!.shadows[0], 'plugin:acme.tools:mine');
    });

    it('is read-only in the catalog: served with its source and origin, not writable at the source', async () => {
      const w = makeWorld();
      const fake = path.join(w.base, 'fake');
      writeSkill(fake, 'mine');
      const catalog = await openCatalog({ ...w, roots: [...w.roots, { path: fake, scope: 'fake', source: 'src1' }] });
      const entry = catalog.resolve('mine');
      assert.equal(entry.id, 'fakeid:src1:mine');
      assert.equal(entry.source, 'fakeid');
      assert.equal(entry.origin, 'src1');
      assert.equal(entry.writableAtSource, false);
    });
  });
});
