// The plugins a long-lived front end reads on every scan (issue 13 point 3): a folder that is not a plugin is
// reported once, not on every scan; a plugin whose manifest changed is read again; plugin locations are plugin
// folders or folders of plugin folders.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pluginsAt, PluginShelf, PLUGIN_SCHEMA_1_0 } from '../../../src/core/plugins';
import { createMemoryHost } from '../../../src/core/host';
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

describe('PluginShelf over the host it is given', () => {
  it('reads plugins from an in-memory host, reads an unchanged one no more, and sees a skill folder added', () => {
    const host = createMemoryHost();
    const root = path.resolve('/mem/shelf/acme');
    host.write(path.join(root, 'plugin.json'), JSON.stringify({ $schema: PLUGIN_SCHEMA_1_0, name: 'acme', version: '1.0.0' }));
    host.write(path.join(root, 'skills', 'one', 'SKILL.md'), '---\nname: one\ndescription: Use one when one is needed.\n---\n');
    const shelf = new PluginShelf(host);
    const skillsOf = (r: ReturnType<PluginShelf['read']>) => r.plugins.flatMap((p) => p.skillRoots.flatMap((s) => s.skills));
    assert.deepEqual(skillsOf(shelf.read([root])), ['one']);
    const reads = host.calls.readFile;
    assert.deepEqual(skillsOf(shelf.read([root])), ['one']);
    assert.equal(host.calls.readFile, reads, 'an unchanged plugin is not read again');
    host.write(path.join(root, 'skills', 'two', 'SKILL.md'), '---\nname: two\ndescription: Use two when two is needed.\n---\n');
    assert.deepEqual(skillsOf(shelf.read([root])), ['one', 'two'], 'a new skill folder moves the stamp of skills/');
    assert.ok(host.calls.readFile > reads);
  });

  it('reads a plugin again on every scan while its stamp cannot be taken (a stat that fails), and keeps it once it can', () => {
    const host = createMemoryHost();
    const root = path.resolve('/mem/shelf/acme');
    const manifest = path.join(root, 'plugin.json');
    host.write(manifest, JSON.stringify({ $schema: PLUGIN_SCHEMA_1_0, name: 'acme', version: '1.0.0' }));
    host.write(path.join(root, 'skills', 'one', 'SKILL.md'), '---\nname: one\ndescription: Use one when one is needed.\n---\n');
    let statFails = true;
    const files = {
      ...host,
      stat: (p: string, options?: { folders?: boolean }) => {
        if (statFails && p === manifest) throw Object.assign(new Error(`EACCES: permission denied, stat '${p}'`), { code: 'EACCES' });
        return host.stat(p, options);
      },
    };
    const shelf = new PluginShelf(files);
    shelf.read([root]);
    const reads = host.calls.readFile;
    shelf.read([root]);
    assert.ok(host.calls.readFile > reads, 'a plugin whose stamp failed was not read again');
    statFails = false;
    shelf.read([root]);
    const settled = host.calls.readFile;
    shelf.read([root]);
    assert.equal(host.calls.readFile, settled, 'once stamped, an unchanged plugin is not read again');
  });
});
