// Plugins found with no configuration where agents install them, in a temp HOME laid out as each host does.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { installedPlugins, PLUGIN_SCHEMA_1_0, readPlugins } from '../../../src/core/plugins';
import { createMemoryHost } from '../../../src/core/host';

let home: string;
function write(rel: string, text: string): string {
  const abs = path.join(home, rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, text);
  return abs;
}
function claudePlugin(rel: string, name: string, version = '1.0.0'): string {
  write(`${rel}/.claude-plugin/plugin.json`, JSON.stringify({ name, version }));
  write(`${rel}/skills/${name}-skill/SKILL.md`, `---\nname: ${name}-skill\ndescription: Use for ${name}.\n---\n`);
  return path.join(home, rel);
}

describe('plugins installed by agents, found with no configuration', () => {
  beforeEach(() => (home = fs.mkdtempSync(path.join(os.tmpdir(), 'plugin-home-'))));
  afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

  it("reads Claude Code's installed_plugins.json (v1 and v2 shapes) and leaves out plugins disabled in its settings", () => {
    const a = claudePlugin('.claude/plugins/cache/mp/alpha/1.0.0', 'alpha');
    const b = claudePlugin('.claude/plugins/cache/mp/beta/2.0.0', 'beta');
    const off = claudePlugin('.claude/plugins/cache/mp/gamma/1.0.0', 'gamma');
    write('.claude/plugins/installed_plugins.json', JSON.stringify({ version: 2, plugins: { 'alpha@mp': [{ scope: 'user', installPath: a }], 'beta@mp': { installPath: b }, 'gamma@mp': [{ installPath: off }], 'rel@mp': [{ installPath: 'relative/path' }] } }));
    write('.claude/settings.json', JSON.stringify({ enabledPlugins: { 'alpha@mp': true, 'gamma@mp': false } }));
    const found = installedPlugins({ homeDir: home });
    assert.deepEqual(found.map((p) => [path.basename(path.dirname(p.dir)), p.host]).sort(), [['alpha', 'claude-code'], ['beta', 'claude-code']]);
  });

  it("finds Copilot CLI's installed plugin folders and VS Code's installed-plugins file entries (paths and file: URIs)", () => {
    write('.copilot/installed-plugins/marketplace/tools/plugin.json', JSON.stringify({ name: 'tools' }));
    write('.copilot/installed-plugins/direct/.github/plugin/plugin.json', JSON.stringify({ name: 'direct' }));
    write('.copilot/installed-plugins/not-a-plugin/readme.md', 'x');
    const vs = path.join(home, 'vscode-plugins', 'std');
    write('vscode-plugins/std/plugin.json', JSON.stringify({ $schema: PLUGIN_SCHEMA_1_0, name: 'std' }));
    const installed = write('vscode-user/agent-plugins/installed.json', JSON.stringify({ version: 1, installed: [{ pluginUri: pathToFileURL(vs).href, marketplace: 'agentplugins/examples' }, { pluginUri: 'file:///nowhere/at/all', marketplace: 'm' }, { pluginUri: pathToFileURL(vs).href }, 42] }));
    const found = installedPlugins({ homeDir: home, vscodeInstalledFiles: [installed, path.join(home, 'missing.json')] });
    assert.deepEqual(found.map((p) => [path.basename(p.dir), p.host]).sort(), [['direct', 'copilot-cli'], ['std', 'vscode'], ['tools', 'copilot-cli']]);
  });

  it('the same plugin installed by two hosts appears once, with both hosts', () => {
    const a = claudePlugin('.claude/plugins/cache/mp/dup/1.0.0', 'dup');
    claudePlugin('.copilot/installed-plugins/mp/dup', 'dup');
    write('.claude/plugins/installed_plugins.json', JSON.stringify({ version: 2, plugins: { 'dup@mp': [{ installPath: a }] } }));
    const plugins = readPlugins(installedPlugins({ homeDir: home }));
    assert.equal(plugins.length, 1);
    assert.deepEqual(plugins[0].hosts.sort(), ['claude-code', 'copilot-cli']);
  });

  it('survives hostile install files: not JSON, too deep, a FIFO', () => {
    write('.claude/plugins/installed_plugins.json', '{"plugins":' + '['.repeat(10000));
    write('.claude/settings.json', 'not json');
    fs.mkdirSync(path.join(home, '.copilot'), { recursive: true });
    const fifo = path.join(home, 'installed.json');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0, 'mkfifo');
    assert.deepEqual(installedPlugins({ homeDir: home, vscodeInstalledFiles: [fifo] }), [], 'a FIFO is not read (nothing would ever write to it)');
  });
});

describe('plugins installed by agents, read through the host given', () => {
  it('finds Claude Code, Copilot CLI and VS Code installs that exist only in an in-memory host', () => {
    const files = createMemoryHost();
    const h = path.resolve('/mem/home-of-a-test');
    const put = (rel: string, text: string) => files.write(path.join(h, rel), text);
    const claude = path.join(h, '.claude/plugins/cache/mp/alpha/1.0.0');
    put('.claude/plugins/cache/mp/alpha/1.0.0/.claude-plugin/plugin.json', JSON.stringify({ name: 'alpha' }));
    put('.claude/plugins/cache/mp/off/1.0.0/.claude-plugin/plugin.json', JSON.stringify({ name: 'off' }));
    put('.claude/plugins/installed_plugins.json', JSON.stringify({ version: 2, plugins: { 'alpha@mp': [{ installPath: claude }], 'off@mp': [{ installPath: path.join(h, '.claude/plugins/cache/mp/off/1.0.0') }] } }));
    put('.claude/settings.json', JSON.stringify({ enabledPlugins: { 'off@mp': false } }));
    put('.copilot/installed-plugins/marketplace/tools/plugin.json', JSON.stringify({ name: 'tools' }));
    const vs = path.join(h, 'vscode/installed.json');
    put('vscode/installed.json', JSON.stringify({ version: 1, installed: [{ pluginUri: pathToFileURL(claude).href, marketplace: 'mp' }] }));
    assert.equal(fs.existsSync(h), false, 'nothing of it is on the disk');
    const found = installedPlugins({ homeDir: h, vscodeInstalledFiles: [vs], files });
    // alpha is listed by VS Code and by Claude Code: once, under the first host that lists it.
    assert.deepEqual(found.map((p) => [path.relative(h, p.dir), p.host]).sort(), [
      ['.claude/plugins/cache/mp/alpha/1.0.0', 'vscode'],
      ['.copilot/installed-plugins/marketplace/tools', 'copilot-cli'],
    ]);
  });
});
