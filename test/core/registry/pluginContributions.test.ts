import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createNodeHost, createSkillRegistry, defaultSkillRoots } from '../../../src/core/registry';
import { pluginContributions, pluginRegistryHost, type PluginPackage } from '../../../src/core/registry/pluginContributions';
import { tempDir, writeSkill } from './registryTestUtil';

/** An installed package folder with a package.json. */
function pkg(base: string, id: string, manifest: Record<string, unknown>): PluginPackage {
  const root = path.join(base, id);
  fs.mkdirSync(root, { recursive: true });
  fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify(manifest));
  return { id, root, manifest };
}

describe('plugin contributions (skills from installed extensions)', () => {
  it('maps contributes.chatSkills (SKILL.md or folder) and agentSkills.skills to plugin roots; opt-out packages are not looked at', () => {
    const base = tempDir('plugins-');
    const a = pkg(base, 'acme.tools', { contributes: { chatSkills: [{ path: './skills/deploy/SKILL.md' }, { path: 'skills/review' }] } });
    writeSkill(path.join(a.root, 'skills'), 'deploy');
    writeSkill(path.join(a.root, 'skills'), 'review');
    writeSkill(path.join(a.root, 'skills'), 'internal'); // shipped but not contributed
    const b = pkg(base, 'beta.pack', { agentSkills: { skills: './skills' } });
    writeSkill(path.join(b.root, 'skills'), 'charts');
    const c = pkg(base, 'plain.ext', { contributes: { commands: [] } });
    writeSkill(path.join(c.root, 'skills'), 'ignored'); // no opt-in: never scanned

    const looked: string[] = [];
    const disk = createNodeHost();
    const r = pluginContributions([a, b, c], {
      kind(p) {
        looked.push(p);
        return disk.kind(p);
      },
      realPath(p) {
        looked.push(p);
        return disk.realPath(p);
      },
    });
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.roots, [
      { path: path.join(a.root, 'skills'), source: 'acme.tools' },
      { path: path.join(b.root, 'skills'), source: 'beta.pack' },
    ]);
    assert.deepEqual([...(r.only.get(path.join(a.root, 'skills')) ?? [])].sort(), ['deploy', 'review']);
    assert.equal(r.only.has(path.join(b.root, 'skills')), false, 'an agentSkills folder contributes every child');
    assert.deepEqual(r.chatSkillDirs, [path.join(a.root, 'skills', 'deploy'), path.join(a.root, 'skills', 'review')]);
    assert.ok(!looked.some((p) => p.startsWith(c.root)), 'a package without the opt-in costs no disk access');
  });

  it('reports entries it cannot use, naming the extension, the field and the fix', () => {
    const base = tempDir('plugins-');
    const outside = pkg(base, 'bad.escape', { contributes: { chatSkills: [{ path: '../acme.tools/skills/deploy/SKILL.md' }] } });
    const missing = pkg(base, 'bad.missing', { contributes: { chatSkills: [{ path: './skills/nope/SKILL.md' }, { name: 'no path' }] } });
    const notSkill = pkg(base, 'bad.file', { contributes: { chatSkills: [{ path: './README.md' }, { path: './SKILL.md' }] }, agentSkills: { skills: './absent' } });
    fs.writeFileSync(path.join(notSkill.root, 'README.md'), '# readme');
    fs.writeFileSync(path.join(notSkill.root, 'SKILL.md'), '---\nname: x\ndescription: y\n---\n');
    const shape = pkg(base, 'bad.shape', { contributes: { chatSkills: { path: './skills' } }, agentSkills: './skills' });
    const r = pluginContributions([outside, missing, notSkill, shape]);
    assert.deepEqual(r.roots, []);
    const expected = [
      /'bad\.escape' package\.json contributes\.chatSkills\[0\]\.path: '\.\.\/acme\.tools\/skills\/deploy\/SKILL\.md' resolves outside the extension folder/,
      /'bad\.missing' package\.json contributes\.chatSkills\[0\]\.path: '\.\/skills\/nope\/SKILL\.md' does not exist/,
      /'bad\.missing' package\.json contributes\.chatSkills\[1\]: expected \{ "path"/,
      /'bad\.file' package\.json agentSkills\.skills: '\.\/absent' is not a folder/,
      /'bad\.file' package\.json contributes\.chatSkills\[0\]\.path: '\.\/README\.md' is not a SKILL\.md/,
      /'bad\.file' package\.json contributes\.chatSkills\[1\]\.path: '\.\/SKILL\.md' is at the extension's root; put the skill in its own folder/,
      /'bad\.shape' package\.json agentSkills: expected \{ "skills": "\.\/skills" \}/,
      /'bad\.shape' package\.json contributes\.chatSkills: expected an array/,
    ];
    assert.equal(r.problems.length, expected.length, r.problems.join('\n'));
    expected.forEach((re, i) => assert.match(r.problems[i], re));
  });

  it('a declared path that leaves the extension through a symbolic link is refused like one that climbs out (the path rule, links followed)', () => {
    const base = tempDir('plugins-');
    const victim = pkg(base, 'other.ext', {});
    writeSkill(path.join(victim.root, 'skills'), 'secret');
    const linker = pkg(base, 'bad.link', { contributes: { chatSkills: [{ path: './linked/SKILL.md' }] }, agentSkills: { skills: './out' } });
    fs.symlinkSync(path.join(victim.root, 'skills', 'secret'), path.join(linker.root, 'linked'));
    fs.symlinkSync(path.join(victim.root, 'skills'), path.join(linker.root, 'out'));
    const r = pluginContributions([linker]);
    assert.deepEqual(r.roots, []);
    assert.deepEqual(r.chatSkillDirs, []);
    assert.equal(r.problems.length, 2, r.problems.join('\n'));
    assert.match(r.problems[0], /agentSkills\.skills: '\.\/out' resolves outside the extension folder/);
    assert.match(r.problems[1], /contributes\.chatSkills\[0\]\.path: '\.\/linked\/SKILL\.md' resolves outside the extension folder/);
  });

  it('the registry finds exactly the contributed skills, with plugin:<extension id>:<name> ids, below workspace and user skills', async () => {
    const base = tempDir('plugins-');
    const a = pkg(base, 'acme.tools', { contributes: { chatSkills: [{ path: './skills/deploy/SKILL.md' }] } });
    writeSkill(path.join(a.root, 'skills'), 'deploy');
    writeSkill(path.join(a.root, 'skills'), 'internal');
    const b = pkg(base, 'beta.pack', { agentSkills: { skills: ['./skills'] } });
    writeSkill(path.join(b.root, 'skills'), 'charts');
    writeSkill(path.join(b.root, 'skills'), 'deploy');
    const ws = path.join(base, 'ws');
    writeSkill(path.join(ws, '.github', 'skills'), 'charts');

    const contributions = pluginContributions([a, b]);
    const roots = defaultSkillRoots({ workspaceFolders: [ws], pluginRoots: contributions.roots });
    const registry = createSkillRegistry({ roots, host: pluginRegistryHost(createNodeHost(), () => contributions.only) });
    const snap = await registry.refresh();
    const byId = Object.fromEntries(snap.records.map((x) => [x.id, x.status]));
    assert.deepEqual(byId, {
      'workspace:charts': 'ok',
      'plugin:beta.pack:charts': 'shadowed',
      'plugin:acme.tools:deploy': 'ambiguous',
      'plugin:beta.pack:deploy': 'ambiguous',
    });
    assert.ok(!snap.records.some((x) => x.name === 'internal'), 'a sibling the package did not list is not a skill');
    // Also when the watcher-style single-folder refresh asks for it directly.
    await registry.refreshSkill(path.join(a.root, 'skills', 'internal'));
    assert.ok(!registry.all().some((x) => x.name === 'internal'));
  });

  it('the filtering host follows contribution changes (an extension installed or removed)', async () => {
    const base = tempDir('plugins-');
    const a = pkg(base, 'acme.tools', { contributes: { chatSkills: [{ path: './skills/deploy/SKILL.md' }] } });
    writeSkill(path.join(a.root, 'skills'), 'deploy');
    let current = pluginContributions([]);
    const host = pluginRegistryHost(createNodeHost(), () => current.only);
    const registry = createSkillRegistry({ roots: [], host });
    assert.equal((await registry.refresh()).records.length, 0);
    current = pluginContributions([a]);
    registry.setRoots(defaultSkillRoots({ pluginRoots: current.roots }));
    assert.deepEqual((await registry.refresh()).records.map((x) => x.id), ['plugin:acme.tools:deploy']);
    current = pluginContributions([]);
    registry.setRoots(defaultSkillRoots({ pluginRoots: current.roots }));
    assert.deepEqual((await registry.refresh()).records, []);
  });
});

describe('pluginRegistryHost over a host written as a class', () => {
  it('passes the writes and `local` on, so the filtered host writes where its base does', async () => {
    class ClassHost {
      readonly local = true;
      readonly written: string[] = [];
      private readonly node = createNodeHost();
      readDirectory(dir: string) { return this.node.readDirectory(dir); }
      stat(file: string) { return this.node.stat(file); }
      readFile(file: string) { return this.node.readFile(file); }
      kind(p: string) { return this.node.kind(p); }
      realPath(p: string) { return this.node.realPath(p); }
      writeFile(file: string) { this.written.push(file); }
      appendFile() {}
      mkdir() {}
      rename() {}
      remove() {}
      truncate() {}
      withLock<T>(_lock: string, fn: () => Promise<T>) { return fn(); }
    }
    const base = new ClassHost();
    const filtered = pluginRegistryHost(base, () => new Map());
    assert.equal(filtered.local, true);
    await filtered.writeFile('/tmp/x');
    assert.deepEqual(base.written, ['/tmp/x'], 'the write reached the base host (bound to it)');
    assert.equal(await filtered.withLock('/tmp/l', async () => 'held'), 'held');
  });
});
