// The plugins a long-lived front end reads on every scan (issue 13 point 3): a folder that is not a plugin is
// reported once, not on every scan; a plugin whose manifest changed is read again; plugin locations are plugin
// folders or folders of plugin folders.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pluginsAt, PluginShelf, PLUGIN_SCHEMA_1_0 } from '../../../src/core/plugins';
import { fileWriter } from '../../support/tempDir';

describe('PluginShelf: plugins read on every scan', () => {
  let base: string;
  const write = fileWriter(() => base);
  const manifest = (name: string, version: string) => JSON.stringify({ $schema: PLUGIN_SCHEMA_1_0, name, version });
  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'plugin-shelf-'));
    write('plugins/good/plugin.json', manifest('good', '1.0.0'));
    write('plugins/good/skills/one/SKILL.md', '---\nname: one\ndescription: Use one when one is needed.\n---\n');
    fs.mkdirSync(path.join(base, 'plugins', 'empty'), { recursive: true });
    fs.mkdirSync(path.join(base, 'lonely'), { recursive: true });
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  it('reports a folder that is not a plugin once across scans, and again only when it is a new problem', () => {
    const shelf = new PluginShelf();
    const dirs = [path.join(base, 'plugins', 'good'), path.join(base, 'lonely')];
    const first = shelf.read(dirs);
    assert.equal(first.fresh.length, 1);
    assert.match(first.fresh[0].message, /lonely is not a plugin/);
    for (let i = 0; i < 3; i++) {
      const again = shelf.read(dirs);
      assert.deepEqual(again.fresh, [], 'the same problem is not reported on the next scans');
      assert.equal(again.plugins.length, 2, 'the rejected folder is still listed (the Skills view shows why)');
    }
    write('lonely/plugin.json', '{ not json');
    const broken = shelf.read(dirs);
    assert.equal(broken.fresh.length, 1, 'a new problem is reported');
    assert.match(broken.fresh[0].message, /plugin\.json/);
  });

  it('reads a plugin again when its manifest changes (a new version), and reuses it when nothing changed', () => {
    const shelf = new PluginShelf();
    const dir = path.join(base, 'plugins', 'good');
    const a = shelf.read([dir]).plugins[0];
    assert.equal(shelf.read([dir]).plugins[0].manifest, a.manifest, 'unchanged: the same read is reused');
    write('plugins/good/plugin.json', manifest('good', '1.0.10'));
    assert.equal(shelf.read([dir]).plugins[0].manifest?.version, '1.0.10');
  });

  it('pluginsAt: a location is a plugin folder or a folder of plugin folders; anything else is passed on to be reported', () => {
    const found = pluginsAt([path.join(base, 'plugins'), path.join(base, 'plugins', 'good'), path.join(base, 'lonely')], 'config');
    assert.deepEqual(found.map((f) => path.relative(base, f.dir)), ['plugins/good', 'plugins/good', 'lonely']);
    assert.ok(found.every((f) => f.host === 'config'));
  });
});
