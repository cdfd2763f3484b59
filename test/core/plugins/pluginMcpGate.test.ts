// The gate in front of a plugin's MCP servers: reading gives what each plugin declares, and only the servers named
// `<plugin>.<server>` come out as something to start. And what the confirmation says before one starts: the command,
// arguments, folder and environment names, with the scrubbed environment's names only, and a fingerprint that
// changes when anything that runs changes.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describeLaunch, launchEnv } from '../../../src/core/mcp/mcpLaunch';
import { MCP_SCHEMA_1_0, PLUGIN_SCHEMA_1_0, pluginDataDir, pluginMcpNotices, pluginMcpServers, readPlugin } from '../../../src/core/plugins';
import { fileWriter } from '../../support/tempDir';

describe('plugin MCP servers: declared by reading, started only when enabled by name', () => {
  let base: string;
  let root: string;
  const write = fileWriter(() => root);
  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'plugin-mcp-gate-'));
    root = path.join(base, 'kit');
    write('plugin.json', JSON.stringify({ $schema: PLUGIN_SCHEMA_1_0, name: 'kit', version: '1.0.0' }));
    write('srv.sh', '#!/bin/sh\n', 0o755);
    write('mcp.json', JSON.stringify({ $schema: MCP_SCHEMA_1_0, mcpServers: { db: { type: 'stdio', command: './srv.sh', args: ['--port', '1'], env: { DB_MODE: 'ro' } }, web: { type: 'streamable-http', url: 'https://mcp.example.com/mcp' }, old: { type: 'sse', url: 'https://old.example.com/sse' } } }));
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  it('declares every server, starts none by default, and starts exactly the ones named', () => {
    const plugin = readPlugin(root);
    const none = pluginMcpServers([plugin], path.join(base, 'data'));
    assert.deepEqual(none.configs, []);
    assert.deepEqual(none.declared.map((d) => [d.name, d.enabled]), [['kit.db', false], ['kit.web', false], ['kit.old', false]]);
    const notices = pluginMcpNotices(none.declared, (n) => `add --enable-plugin-mcp ${n}`);
    assert.equal(notices.length, 1);
    assert.match(notices[0], /^Plugin "kit" declares MCP server\(s\) kit\.db \(.*srv\.sh\), kit\.web \(https:\/\/mcp\.example\.com\/mcp\), not started: reading a plugin never runs it\. To start one, add --enable-plugin-mcp kit\.db\.$/);
    const one = pluginMcpServers([plugin], path.join(base, 'data'), { enabled: ['kit.db', 'kit.old', 'other.x'] });
    assert.deepEqual(one.configs.map((c) => c.name), ['kit.db'], 'legacy SSE is never started, and an unknown name starts nothing');
    assert.deepEqual(pluginMcpNotices(one.declared, (n) => n).map((l) => /declares MCP server\(s\) (.*), not started/.exec(l)?.[1]), ['kit.web (https://mcp.example.com/mcp)']);
  });

  it('an enabled stdio server gets the scrubbed environment; the confirmation names what runs and none of the host\'s values', () => {
    const [db] = pluginMcpServers([readPlugin(root)], path.join(base, 'data'), { enabled: ['kit.db'] }).configs;
    const host = { PATH: '/usr/bin', LANG: 'C.UTF-8', AWS_SECRET_ACCESS_KEY: 'abc123secret', HOME: '/home/me', SSH_AUTH_SOCK: '/tmp/agent' };
    assert.ok('command' in db);
    const env = launchEnv(db, host);
    assert.deepEqual(Object.keys(env).sort(), ['DB_MODE', 'HOME', 'LANG', 'PATH', 'PLUGIN_DATA', 'PLUGIN_ROOT']);
    assert.equal(env.HOME, pluginDataDir(path.join(base, 'data'), { name: 'kit', root, version: readPlugin(root).manifest?.version }), 'HOME is the plugin data folder');
    const d = describeLaunch(db, host);
    assert.match(d.summary, /Start MCP server 'kit\.db'\? It runs .*srv\.sh on this machine\./);
    assert.match(d.detail, /^Command: .*srv\.sh$/m);
    assert.match(d.detail, /^Arguments: "--port" "1"$/m);
    assert.match(d.detail, new RegExp(`^Folder: ${fs.realpathSync(root)}$`, 'm'));
    assert.match(d.detail, /^Environment it declares: DB_MODE, HOME, PLUGIN_DATA, PLUGIN_ROOT$/m);
    assert.match(d.detail, /^From your environment: LANG, PATH$/m);
    assert.doesNotMatch(d.detail, /abc123secret|SSH_AUTH_SOCK|AWS_/);
    // A user's own server (not scrubbed) keeps this process's environment, and the confirmation says so.
    const own = describeLaunch({ name: 'own', command: 'agent-skills', args: ['mcp'] }, host);
    assert.match(own.detail, /From your environment: everything/);
    assert.equal(launchEnv({ name: 'own', command: 'x', args: [] }, host).AWS_SECRET_ACCESS_KEY, 'abc123secret');
    // Anything that runs differently asks again.
    assert.notEqual(describeLaunch({ ...db, args: ['--port', '2'] }, host).fingerprint, d.fingerprint);
    assert.equal(describeLaunch(db, { ...host, OTHER: 'x' }).fingerprint, d.fingerprint, 'not the host environment, which changes all the time');
  });

  it('the setting that enables them is read from user settings only (a workspace cannot enable a server)', () => {
    const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, { scope?: string }> } } };
    assert.equal(pkg.contributes.configuration.properties['agentSkills.plugins.enabledMcpServers']?.scope, 'application');
  });
});
