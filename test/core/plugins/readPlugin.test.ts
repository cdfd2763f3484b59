// Agent Plugins 1.0 (agent-plugins.org, spec/1.0.0.md) as a skills client: Appendix A's plugin-loader and
// component-discovery items, the host layouts, and the registry's view (ids, precedence), on fixture plugins
// written to temp folders.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pluginSkillRoots, PLUGIN_SCHEMA_1_0, readPlugin, readPlugins } from '../../../src/core/plugins';
import { createSkillRegistry } from '../../../src/core/registry';
import { createMemoryHost } from '../../../src/core/host';

let base: string;
function write(rel: string, text: string): string {
  const abs = path.join(base, rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, text);
  return abs;
}
const manifest = (o: Record<string, unknown>) => JSON.stringify({ $schema: PLUGIN_SCHEMA_1_0, ...o });
const skill = (name: string, description = `Use ${name} when the task needs ${name}.`) => `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`;
function plugin(dir: string, m: string | undefined, skills: string[] = ['alpha']): string {
  if (m !== undefined) write(`${dir}/plugin.json`, m);
  for (const s of skills) write(`${dir}/skills/${s}/SKILL.md`, skill(s));
  return path.join(base, dir);
}
const errors = (r: ReturnType<typeof readPlugin>) => r.problems.filter((p) => p.severity === 'error');
const skillsOf = (r: ReturnType<typeof readPlugin>) => r.skillRoots.flatMap((s) => s.skills);

describe('Agent Plugins 1.0: reading a plugin for its skills', () => {
  beforeEach(() => (base = fs.mkdtempSync(path.join(os.tmpdir(), 'plugins-'))));
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  it('§5.1-5.3: loads a minimal valid manifest and its skills', () => {
    const r = readPlugin(plugin('p', manifest({ name: 'minimal-plugin', version: '1.0.0' }), ['alpha', 'beta']));
    assert.deepEqual(errors(r), []);
    assert.equal(r.layout, 'agent-plugins');
    assert.equal(r.manifest?.name, 'minimal-plugin');
    assert.deepEqual(skillsOf(r), ['alpha', 'beta']);
  });

  it('§5.2/§5.3: rejects invalid JSON, a missing or foreign $schema, a missing name; none of its skills load', () => {
    for (const [m, field] of [
      ['{ "name": ', undefined],
      [JSON.stringify({ name: 'x' }), '$schema'],
      [JSON.stringify({ $schema: 'https://agent-plugins.org/schemas/2.0.0/plugin.schema.json', name: 'x' }), '$schema'],
      [manifest({}), 'name'],
      ['[]', undefined],
    ] as const) {
      const r = readPlugin(plugin(`p${Math.random()}`, m));
      assert.equal(r.manifest, undefined, m);
      assert.deepEqual(skillsOf(r), [], m);
      const e = errors(r);
      assert.equal(e.length >= 1, true, m);
      if (field) assert.ok(e.some((x) => x.field === field && x.message.includes('plugin.json')), `${m}: ${JSON.stringify(e)}`);
    }
  });

  it('§5.5: accepts and refuses names as the spec lists them', () => {
    for (const name of ['my-plugin', 'acme.tools', 'lint3r', 'a']) assert.ok(readPlugin(plugin(`ok-${name}`, manifest({ name }))).manifest, name);
    for (const name of ['My-Plugin', '-start', 'has--double', 'too.many..dots', '', 'x'.repeat(65), 'end-']) {
      const r = readPlugin(plugin(`bad${Math.random()}`, manifest({ name })));
      assert.equal(r.manifest, undefined, name);
      assert.ok(errors(r).some((e) => e.field === 'name' && /§5\.5/.test(e.rule)), name);
    }
  });

  it('§5.2/§8.1: reports and ignores unknown fields and a non-object extensions; never looks into namespaces', () => {
    const r = readPlugin(plugin('p', manifest({ name: 'p', skills: './elsewhere', hooks: {}, extensions: { 'com.example.client': { anything: [1, { deep: true }] } } })));
    assert.ok(r.manifest);
    assert.deepEqual(r.problems.filter((p) => p.severity === 'warning').map((p) => p.field).sort(), ['hooks', 'skills']);
    assert.deepEqual(skillsOf(r), ['alpha'], 'an unknown "skills" field gives it no meaning');
    const r2 = readPlugin(plugin('q', manifest({ name: 'q', extensions: 'nope' })));
    assert.ok(r2.manifest);
    assert.deepEqual(r2.problems.map((p) => p.field), ['extensions']);
  });

  it('§5.4: a wrong type of a metadata field or an author field not in the spec rejects the plugin', () => {
    assert.equal(readPlugin(plugin('a', manifest({ name: 'a', version: 1 }))).manifest, undefined);
    assert.equal(readPlugin(plugin('b', manifest({ name: 'b', author: { name: 'x', twitter: '@x' } }))).manifest, undefined);
    assert.ok(readPlugin(plugin('c', manifest({ name: 'c', version: 'not-semver', homepage: 'not a url' }))).manifest, 'metadata is checked by type only');
  });

  it('§6.2/§7.1: no skills/ is fine; skills/ as a file is reported; only immediate children are skills', () => {
    const none = readPlugin(plugin('none', manifest({ name: 'none' }), []));
    assert.deepEqual(none.problems, []);
    const file = plugin('file', manifest({ name: 'file' }), []);
    fs.writeFileSync(path.join(file, 'skills'), 'not a folder');
    const r = readPlugin(file);
    assert.ok(r.manifest, 'the plugin still loads');
    assert.ok(r.problems.some((p) => /§6\.2/.test(p.rule)));
    const nested = plugin('nested', manifest({ name: 'nested' }), ['top']);
    write('nested/skills/group/inner/SKILL.md', skill('inner'));
    const n = readPlugin(nested);
    assert.deepEqual(skillsOf(n), ['top'], 'skills/group/inner is not searched');
    assert.ok(n.problems.some((p) => p.file.endsWith(path.join('group', 'SKILL.md'))), 'a child folder without SKILL.md is reported');
  });

  it('§4.1: a skill, skills/ or plugin.json that links outside the plugin is refused at the narrowest boundary', () => {
    const outside = path.join(base, 'outside');
    write('outside/evil/SKILL.md', skill('evil'));
    write('outside/plugin.json', manifest({ name: 'evil' }));
    const p = plugin('p', manifest({ name: 'p' }), ['good']);
    fs.symlinkSync(path.join(outside, 'evil'), path.join(p, 'skills', 'evil'));
    write('p/skills/inlink/references/x.md', 'x');
    fs.symlinkSync(path.join(p, 'skills', 'good', 'SKILL.md'), path.join(p, 'skills', 'inlink', 'SKILL.md'));
    const r = readPlugin(p);
    assert.deepEqual(skillsOf(r), ['good', 'inlink'], 'the sibling and a link within still load');
    assert.ok(r.problems.some((x) => x.file.endsWith(path.join('skills', 'evil')) && /§4\.1/.test(x.rule)));

    const q = plugin('q', manifest({ name: 'q' }), []);
    fs.symlinkSync(outside, path.join(q, 'skills'));
    const rq = readPlugin(q);
    assert.ok(rq.manifest);
    assert.deepEqual(skillsOf(rq), []);
    assert.ok(rq.problems.some((x) => /outside the plugin/.test(x.message)));

    const m = path.join(base, 'm');
    fs.mkdirSync(m);
    fs.symlinkSync(path.join(outside, 'plugin.json'), path.join(m, 'plugin.json'));
    const rm = readPlugin(m);
    assert.equal(rm.manifest, undefined);
    assert.ok(rm.problems.some((x) => /outside the plugin folder/.test(x.message)));
  });

  it('bounds the manifest: too large or too deep is refused without parsing', () => {
    const big = readPlugin(plugin('big', manifest({ name: 'big', description: 'x'.repeat(300 * 1024) })));
    assert.equal(big.manifest, undefined);
    assert.match(big.problems[0].message, /at most/);
    const deep = readPlugin(plugin('deep', `{"$schema":"${PLUGIN_SCHEMA_1_0}","name":"deep","extensions":{"a":${'['.repeat(5000)}${']'.repeat(5000)}}}`));
    assert.equal(deep.manifest, undefined);
    assert.match(deep.problems[0].message, /deeper than/);
    // Stray closers first used to take the manifest's own depth count below zero, so the deep part that follows
    // passed it (the parser then refused the text as invalid JSON); the one depth count of text/jsonNesting.ts
    // never goes below zero, as the trigger and eval checks always counted.
    const closersFirst = readPlugin(plugin('closers', `${']'.repeat(100)}${'['.repeat(100)}`));
    assert.equal(closersFirst.manifest, undefined);
    assert.match(closersFirst.problems[0].message, /nests deeper than 32 levels/);
  });

  it('reads the host layouts: Claude Code (with its skill paths), Copilot and Codex', () => {
    write('claude/.claude-plugin/plugin.json', JSON.stringify({ name: 'cc', version: '2.0.0', skills: ['./extra/one', './more'] }));
    write('claude/skills/base/SKILL.md', skill('base'));
    write('claude/extra/one/SKILL.md', skill('one'));
    write('claude/more/two/SKILL.md', skill('two'));
    const c = readPlugin(path.join(base, 'claude'));
    assert.equal(c.layout, 'claude');
    assert.deepEqual(skillsOf(c).sort(), ['base', 'one', 'two']);
    write('gh/.github/plugin/plugin.json', JSON.stringify({ name: 'gh' }));
    write('gh/skills/x/SKILL.md', skill('x'));
    assert.deepEqual([readPlugin(path.join(base, 'gh')).layout, skillsOf(readPlugin(path.join(base, 'gh')))], ['copilot', ['x']]);
    write('cx/.codex-plugin/plugin.json', JSON.stringify({ name: 'cx', skills: '../escape' }));
    write('cx/skills/y/SKILL.md', skill('y'));
    const cx = readPlugin(path.join(base, 'cx'));
    assert.equal(cx.layout, 'codex');
    assert.deepEqual(skillsOf(cx), ['y']);
    assert.ok(cx.problems.some((p) => p.field === 'skills'), 'a skill path that does not start with ./ is reported');
  });

  it('in the registry: ids plugin:<name>:<skill>, below user skills, the same folder once, a broken skill reported alone', async () => {
    const p = plugin('p', manifest({ name: 'acme.tools' }), ['shared', 'own']);
    write('p/skills/broken/SKILL.md', '---\nname: Not Valid\n---\n');
    write('user/shared/SKILL.md', skill('shared'));
    const plugins = readPlugins([p, p, path.join(base, 'p', '.', '')]);
    assert.equal(plugins.length, 1, 'one plugin reached three ways is read once');
    const registry = createSkillRegistry({ roots: [{ path: path.join(base, 'user'), scope: 'user' }, ...pluginSkillRoots(plugins)] });
    const records = (await registry.refresh()).records;
    const status = Object.fromEntries(records.map((r) => [r.id, r.status]));
    assert.equal(status['user:shared'], 'ok');
    assert.equal(status['plugin:acme.tools:shared'], 'shadowed');
    assert.equal(status['plugin:acme.tools:own'], 'ok');
    const broken = records.find((r) => r.rootDir.endsWith(path.join('skills', 'broken')));
    assert.equal(broken?.status, 'broken', JSON.stringify(status));
    assert.ok(broken?.id.startsWith('plugin:acme.tools:'));
  });

  it('the same folder reached through a link is one plugin, loaded or rejected, with the hosts of both paths', () => {
    const good = plugin('good', manifest({ name: 'good', version: '1.0.0' }), ['one']);
    const bad = plugin('bad', '{ not json', ['two']);
    fs.symlinkSync(good, path.join(base, 'good-link'));
    fs.symlinkSync(bad, path.join(base, 'bad-link'));
    const plugins = readPlugins([
      { dir: good, host: 'claude-code' },
      { dir: path.join(base, 'good-link'), host: 'copilot-cli' },
      { dir: bad, host: 'claude-code' },
      { dir: path.join(base, 'bad-link'), host: 'vscode' },
    ]);
    assert.deepEqual(plugins.map((x) => [x.manifest?.name ?? 'rejected', x.hosts]), [['good', ['claude-code', 'copilot-cli']], ['rejected', ['claude-code', 'vscode']]]);
    assert.equal(plugins[1].problems.filter((x) => x.severity === 'error').length, 1, 'the rejected plugin is reported once');
  });

  it('§4.1 in discovery (fast reading): a SKILL.md that links out of the plugin is refused by the registry, a link within loads', async () => {
    write('outside/secret.md', skill('secret'));
    const p = plugin('p', manifest({ name: 'p' }), ['good']);
    fs.mkdirSync(path.join(p, 'skills', 'evil'));
    fs.symlinkSync(path.join(base, 'outside', 'secret.md'), path.join(p, 'skills', 'evil', 'SKILL.md'));
    fs.mkdirSync(path.join(p, 'skills', 'within'));
    fs.symlinkSync(path.join(p, 'skills', 'good', 'SKILL.md'), path.join(p, 'skills', 'within', 'SKILL.md'));
    const plugins = readPlugins([p]);
    assert.deepEqual(skillsOf(plugins[0]), ['evil', 'good', 'within'], 'fast reading leaves SKILL.md to the registry');
    const records = (await createSkillRegistry({ roots: pluginSkillRoots(plugins) }).refresh()).records;
    const evil = records.find((r) => r.rootDir.endsWith(path.join('skills', 'evil')));
    assert.equal(evil?.status, 'broken');
    assert.match(evil!.diagnostics[0].message, /is a link that leads outside the plugin folder .*§4\.1/);
    assert.equal(evil!.description, '', 'nothing of the outside file was read into the record');
    const within = records.find((r) => r.rootDir.endsWith(path.join('skills', 'within')));
    assert.ok(within && within.status !== 'broken' && within.name === 'good', JSON.stringify(within && { status: within.status, name: within.name, d: within.diagnostics }));
  });
});

describe('Agent Plugins 1.0: a plugin read through the host it is given', () => {
  it('reads a plugin that exists only in an in-memory host: manifest, skills, a folder without SKILL.md, a host layout; the registry loads its skills from the same host', async () => {
    const host = createMemoryHost();
    const root = path.resolve('/mem/plugins/acme');
    host.write(path.join(root, 'plugin.json'), manifest({ name: 'acme', version: '1.2.0' }));
    host.write(path.join(root, 'skills', 'alpha', 'SKILL.md'), skill('alpha'));
    host.write(path.join(root, 'skills', 'beta', 'SKILL.md'), skill('beta'));
    host.write(path.join(root, 'skills', 'empty', 'notes.md'), 'no SKILL.md here');
    const claude = path.resolve('/mem/plugins/claude-one');
    host.write(path.join(claude, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'claude-one', skills: './extra' }));
    host.write(path.join(claude, 'extra', 'SKILL.md'), skill('extra'));
    assert.equal(fs.existsSync(root), false, 'the plugin is not on the disk');

    const full = readPlugin(root, { files: host });
    assert.deepEqual([full.manifest?.name, full.manifest?.version, errors(full)], ['acme', '1.2.0', []]);
    assert.deepEqual(skillsOf(full), ['alpha', 'beta']);
    assert.ok(full.problems.some((p) => p.severity === 'warning' && /empty has no SKILL\.md/.test(p.message)), JSON.stringify(full.problems));
    const hostLayout = readPlugin(claude, { files: host });
    assert.deepEqual([hostLayout.layout, hostLayout.manifest?.name, skillsOf(hostLayout)], ['claude', 'claude-one', ['extra']]);

    const plugins = readPlugins([root, claude], (dir) => readPlugin(dir, { fast: true, files: host }));
    const snap = await createSkillRegistry({ roots: pluginSkillRoots(plugins), host }).refresh();
    assert.deepEqual(snap.records.filter((r) => r.status === 'ok').map((r) => r.id).sort(), ['plugin:acme:alpha', 'plugin:acme:beta', 'plugin:claude-one:extra']);
  });
});
