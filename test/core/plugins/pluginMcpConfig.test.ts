// A plugin's mcp.json (Agent Plugins 1.0 §7.2, §9.2) read for the skills client and for validate: the closed server
// variants, the single-token command, cwd forms, HTTPS except loopback, $schema, reserved env names, credential-
// looking headers, placeholder expansion, and the failure boundaries (a bad file disables MCP, a bad entry is
// skipped alone). Then the whole path: a plugin whose mcp.json starts our own server serving a skill, listed by
// `agent-skills list --plugin` as mcp:<plugin>.<server>:<skill>.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cachedPluginMcpReader, MCP_SCHEMA_1_0, PLUGIN_SCHEMA_1_0, pluginDataDir, readPlugin, readPluginMcp } from '../../../src/core/plugins';
import { createMemoryHost } from '../../../src/core/host';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../../support/ensureBuilt';
import { fileWriter } from '../../support/tempDir';

const CLI = path.resolve(__dirname, '../../../dist/cli.js');

describe('Agent Plugins 1.0 §7.2: a plugin\'s mcp.json', function () {
  this.timeout(60_000);
  let base: string;
  let root: string;
  const write = fileWriter(() => root);
  const mcp = (servers: Record<string, unknown>, extra: Record<string, unknown> = {}) => write('mcp.json', JSON.stringify({ $schema: MCP_SCHEMA_1_0, mcpServers: servers, ...extra }));
  const read = () => readPluginMcp(readPlugin(root), path.join(base, 'data'));
  const messages = (r: ReturnType<typeof read>) => r.problems.map((p) => `${p.severity}: ${p.message}`).join('\n');
  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'plugin-mcp-'));
    root = path.join(base, 'tools');
    write('plugin.json', JSON.stringify({ $schema: PLUGIN_SCHEMA_1_0, name: 'tools', version: '1.0.0' }));
    write('bin/server', '#!/bin/sh\n', 0o755);
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  it('§7.2.1/§9.2: starts a valid stdio server from the plugin root with PLUGIN_ROOT/PLUGIN_DATA set and placeholders expanded once', () => {
    mcp({ local: { type: 'stdio', command: './bin/server', args: ['--data', '${PLUGIN_DATA}/db', '${PLUGIN_ROOT}${PLUGIN_ROOT}', '${HOME}'], env: { CONFIG: '${PLUGIN_ROOT}/c.json' } }, web: { type: 'streamable-http', url: 'https://mcp.example.com/mcp' }, dev: { type: 'streamable-http', url: 'http://127.0.0.1:8080/mcp' } });
    const r = read();
    assert.deepEqual(r.problems, []);
    const real = fs.realpathSync(root);
    const local = r.servers.find((s) => s.server === 'local')!.config as { name: string; command: string; args: string[]; env: Record<string, string>; cwd: string };
    assert.equal(local.name, 'tools.local');
    assert.equal(local.command, path.join(real, 'bin/server'));
    assert.equal(local.cwd, real, 'cwd defaults to the plugin root');
    const data = pluginDataDir(path.join(base, 'data'), { name: 'tools', root, version: '1.0.0' });
    assert.deepEqual(local.args, ['--data', `${data}/db`, `${real}${real}`, '${HOME}'], 'each placeholder once; anything else stays literal');
    assert.equal(local.env.CONFIG, `${real}/c.json`);
    assert.equal(local.env.PLUGIN_ROOT, real);
    assert.equal(local.env.PLUGIN_DATA, data);
    assert.deepEqual(r.servers.map((s) => s.server).sort(), ['dev', 'local', 'web']);
  });

  it('§7.2.2: a bad file disables MCP for the plugin (wrong $schema, extra top-level field, invalid JSON); its skills still load', () => {
    for (const text of [JSON.stringify({ $schema: 'https://agent-plugins.org/schemas/2.0.0/mcp.schema.json', mcpServers: {} }), JSON.stringify({ $schema: MCP_SCHEMA_1_0, mcpServers: {}, servers: {} }), '{ "mcpServers": ', JSON.stringify({ $schema: MCP_SCHEMA_1_0, mcpServers: [] })]) {
      write('mcp.json', text);
      const r = read();
      assert.equal(r.servers.length, 0);
      assert.equal(r.problems.length, 1, messages(r));
      assert.match(r.problems[0].message, /MCP is disabled for plugin "tools"; its skills still load/);
    }
  });

  it('§7.2.1: skips a bad entry alone and says why (command, variants, cwd, url, headers, reserved env names)', () => {
    mcp({
      good: { type: 'stdio', command: 'node' },
      shell: { type: 'stdio', command: 'node server.js' },
      slash: { type: 'stdio', command: 'bin/server' },
      escape: { type: 'stdio', command: './../../bin/sh' },
      mixed: { type: 'stdio', command: 'node', url: 'https://x.example' },
      unknownType: { type: 'websocket', url: 'wss://x.example' },
      cwdOut: { type: 'stdio', command: 'node', cwd: '${PLUGIN_ROOT}/../..' },
      cwdForm: { type: 'stdio', command: 'node', cwd: '/tmp' },
      reserved: { type: 'stdio', command: 'node', env: { PLUGIN_ROOT: '/' } },
      plainHttp: { type: 'streamable-http', url: 'http://mcp.example.com/mcp' },
      userinfo: { type: 'streamable-http', url: 'https://user:pw@mcp.example.com/mcp' },
      fragment: { type: 'streamable-http', url: 'https://mcp.example.com/mcp#x' },
      dupHeader: { type: 'streamable-http', url: 'https://mcp.example.com/mcp', headers: { 'X-Tenant': 'a', 'x-tenant': 'b' } },
    });
    const r = read();
    assert.deepEqual(r.servers.map((s) => s.server), ['good']);
    const why = messages(r);
    for (const [server, re] of [
      ['shell', /one executable token/],
      ['slash', /one executable token/],
      ['escape', /resolves outside the plugin folder|does not exist/],
      ['mixed', /Unrecognized key|url/],
      ['unknownType', /type/],
      ['cwdOut', /resolves outside the plugin folder|does not exist/],
      ['cwdForm', /must be "\.\/<path>"/],
      ['reserved', /must not set PLUGIN_ROOT/],
      ['plainHttp', /only localhost and loopback addresses may use http/],
      ['userinfo', /user information/],
      ['fragment', /fragment/],
      ['dupHeader', /given twice/],
    ] as const) {
      assert.match(why, new RegExp(`server "${server}": .*${re.source}`), `${server}:\n${why}`);
    }
    assert.equal(r.problems.filter((p) => p.severity === 'error').length, 12, why);
  });

  it('the cached reader reads mcp.json again only when the plugin was read again or the file changed', () => {
    mcp({ web: { type: 'streamable-http', url: 'https://mcp.example.com/mcp' } });
    const plugin = readPlugin(root);
    const reader = cachedPluginMcpReader();
    const data = path.join(base, 'data');
    const first = reader(plugin, data);
    assert.deepEqual(first.servers.map((s) => s.server), ['web']);
    assert.equal(reader(plugin, data), first, 'an unchanged file was read again');
    // A different size and mtime: read again, whatever the clock's resolution.
    mcp({ web: { type: 'streamable-http', url: 'https://mcp.example.com/mcp' }, other: { type: 'streamable-http', url: 'https://other.example.com/mcp' } });
    fs.utimesSync(path.join(root, 'mcp.json'), new Date(), new Date(Date.now() + 5000));
    const second = reader(plugin, data);
    assert.notEqual(second, first);
    assert.deepEqual(second.servers.map((s) => s.server).sort(), ['other', 'web']);
    fs.rmSync(path.join(root, 'mcp.json'));
    assert.deepEqual(reader(plugin, data).servers, [], 'a removed file still served');
  });

  it('reads a plugin held in a host (in memory): the file, its changes and its removal are seen through the host', () => {
    const mem = createMemoryHost();
    const memRoot = path.resolve('/mem/plugins/tools');
    mem.write(path.join(memRoot, 'plugin.json'), JSON.stringify({ $schema: PLUGIN_SCHEMA_1_0, name: 'tools', version: '1.0.0' }));
    mem.write(path.join(memRoot, 'mcp.json'), JSON.stringify({ $schema: MCP_SCHEMA_1_0, mcpServers: { web: { type: 'streamable-http', url: 'https://mcp.example.com/mcp' } } }));
    const plugin = readPlugin(memRoot, { files: mem });
    assert.equal(plugin.manifest?.name, 'tools');
    const reader = cachedPluginMcpReader(mem);
    const first = reader(plugin, path.join(base, 'data'));
    assert.deepEqual(first.servers.map((s) => s.server), ['web'], messages(first));
    assert.equal(reader(plugin, path.join(base, 'data')), first, 'an unchanged file was read again');
    mem.write(path.join(memRoot, 'mcp.json'), JSON.stringify({ $schema: 'https://example.com/wrong', mcpServers: {} }));
    const bad = reader(plugin, path.join(base, 'data'));
    assert.deepEqual(bad.servers, []);
    assert.match(messages(bad), /\$schema/);
    mem.remove(path.join(memRoot, 'mcp.json'));
    assert.deepEqual(reader(plugin, path.join(base, 'data')), { servers: [], problems: [] });
  });

  it('§7.2.1: a header that looks like a credential is a warning, and the server is kept', () => {
    mcp({ api: { type: 'streamable-http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer abcdefghijklmnop' } } });
    const r = read();
    assert.deepEqual(r.servers.map((s) => s.server), ['api']);
    assert.equal(r.problems.length, 1);
    assert.equal(r.problems[0].severity, 'warning');
    assert.match(r.problems[0].message, /looks like a credential/);
  });

  it("a plugin's server that serves skills joins `agent-skills list --plugin --enable-plugin-mcp` as mcp:<plugin>.<server>:<skill>", function () {
    this.timeout(BUILD_TIMEOUT_MS);
    ensureBuilt();
    write('served/remote-guide/SKILL.md', '---\nname: remote-guide\ndescription: Use remote-guide when the plugin server should guide you.\n---\n# Guide\n');
    mcp({ skills: { type: 'stdio', command: 'node', args: [CLI, 'mcp', '--no-defaults', '--root', '${PLUGIN_ROOT}/served', '--state-dir', '${PLUGIN_DATA}/state'] } });
    const home = path.join(base, 'home');
    fs.mkdirSync(home);
    const env = { ...process.env, HOME: home, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}` };
    const r = spawnSync(process.execPath, [CLI, 'list', '--no-defaults', '--plugin', root, '--state-dir', path.join(base, 'state'), '--enable-plugin-mcp', 'tools.skills'], { env, encoding: 'utf8' });
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /mcp:tools\.skills:remote-guide/);
    assert.ok(fs.existsSync(path.join(pluginDataDir(path.join(base, 'state', 'plugin-data'), { name: 'tools', root, version: '1.0.0' }), 'state')), 'PLUGIN_DATA was made before the server started and the server wrote there');
  });
});
