// Discovery never executes (issue 22 point 2). A plugin whose mcp.json declares a server that writes a marker file
// (its own script, and `sh -c`), read by every surface that reads plugins: `list --plugin`, a plain `list` and
// `mcp` that find it installed under ~/.copilot/installed-plugins, `validate`, `mcp` serving with a real SDK client
// listing what it serves, and the language server opening the plugin's files. No marker. Named with
// --enable-plugin-mcp the server starts, and its environment has what mcp.json declares and not the caller's secret.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MCP_SCHEMA_1_0, PLUGIN_SCHEMA_1_0, pluginDataDir } from '../../src/core/plugins';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { fileWriter, makeTempDir } from '../support/tempDir';
import { fileUri, openDoc, startServer } from '../server/lspTestClient';
import { CLI, REPO, stdioClient, toolText } from './mcpSupport';

const HOSTILE = path.join(REPO, 'test/fixtures/mcp/hostileSkillsServer.mjs');
const SECRET = 'hunter2-do-not-leak';

describe('discovery never runs a plugin: its MCP servers start only when enabled by name', function () {
  this.timeout(60_000);
  let tmp: { dir: string; cleanup: () => void };
  let home: string;
  let plugin: string;
  let marker: string;
  let shellMarker: string;
  let state: string;
  let env: NodeJS.ProcessEnv;
  before(function () {
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });
  beforeEach(() => {
    tmp = makeTempDir('plugin-discovery-');
    home = path.join(tmp.dir, 'home');
    // Installed where Copilot CLI installs plugins, so a plain `list` / `mcp` finds it too.
    plugin = path.join(home, '.copilot', 'installed-plugins', 'kit');
    marker = path.join(tmp.dir, 'ran-srv');
    shellMarker = path.join(tmp.dir, 'ran-shell');
    state = path.join(tmp.dir, 'state');
    const write = fileWriter(() => plugin);
    write('plugin.json', JSON.stringify({ $schema: PLUGIN_SCHEMA_1_0, name: 'kit', version: '1.0.0' }));
    write('skills/alpha/SKILL.md', '---\nname: alpha\ndescription: Use alpha for the alpha task.\n---\n# Alpha\n');
    write('srv.sh', `#!/bin/sh\nenv > '${marker}'\nexec '${process.execPath}' '${HOSTILE}' honest\n`, 0o755);
    write(
      'mcp.json',
      JSON.stringify({
        $schema: MCP_SCHEMA_1_0,
        mcpServers: { srv: { type: 'stdio', command: './srv.sh', env: { DECLARED: 'yes' } }, shell: { type: 'stdio', command: 'sh', args: ['-c', `echo ran > '${shellMarker}'`] } },
      }),
    );
    fs.mkdirSync(path.join(tmp.dir, 'work'));
    env = { ...process.env, HOME: home, SECRET_TOKEN: SECRET };
  });
  afterEach(() => tmp.cleanup());
  const cli = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { env, cwd: path.join(tmp.dir, 'work'), encoding: 'utf8' });
  const nothingRan = (when: string) => {
    assert.equal(fs.existsSync(marker), false, `${when} started the plugin's ./srv.sh`);
    assert.equal(fs.existsSync(shellMarker), false, `${when} started the plugin's sh -c`);
  };

  it('list --plugin, a plain list (installed plugin) and validate read the plugin and start nothing; list says which servers it declares and how to start them', () => {
    const byFlag = cli(['list', '--no-defaults', '--plugin', plugin, '--state-dir', state]);
    assert.equal(byFlag.status, 0, `${byFlag.stdout}\n${byFlag.stderr}`);
    assert.match(byFlag.stdout, /plugin:kit:alpha/);
    assert.match(byFlag.stdout, /Plugin "kit" declares MCP server\(s\) kit\.srv \(.*srv\.sh\), kit\.shell \(sh\), not started: reading a plugin never runs it\. To start one, add --enable-plugin-mcp kit\.srv\./);
    nothingRan('list --plugin');
    const plain = cli(['list', '--state-dir', state]);
    assert.match(plain.stdout, /plugin:kit:alpha/, `${plain.stdout}\n${plain.stderr}`);
    nothingRan('a plain list');
    const json = JSON.parse(cli(['list', '--no-defaults', '--plugin', plugin, '--state-dir', state, '--json']).stdout) as { pluginMcpServers: { name: string; enabled: boolean }[] };
    assert.deepEqual(json.pluginMcpServers.map((d) => [d.name, d.enabled]), [['kit.srv', false], ['kit.shell', false]]);
    const validate = cli(['validate', plugin]);
    assert.ok(validate.status === 0 || validate.status === 1, `${validate.stdout}\n${validate.stderr}`);
    nothingRan('validate');
  });

  it('mcp serving the plugin (as installed, and with --plugin) answers a real SDK client and starts nothing', async () => {
    for (const extra of [[], ['--no-defaults', '--plugin', plugin]]) {
      const { client, stderr } = await stdioClient([CLI, 'mcp', '--state-dir', state, ...extra], { HOME: home, SECRET_TOKEN: SECRET });
      try {
        const list = toolText(await client.callTool({ name: 'list_skills', arguments: {} }));
        assert.match(list, /alpha/, list);
        const resources = await client.listResources();
        assert.ok(resources.resources.some((r) => r.uri.startsWith('skill://alpha/')), JSON.stringify(resources.resources.map((r) => r.uri)));
        assert.match(stderr(), /Plugin "kit" declares MCP server\(s\) kit\.srv .*--enable-plugin-mcp kit\.srv/);
      } finally {
        await client.close();
      }
      nothingRan(`mcp ${extra.join(' ')}`);
    }
  });

  it('the language server opening the plugin\'s plugin.json, mcp.json and SKILL.md starts nothing', async () => {
    const s = await startServer({ workspaceFolders: [plugin], initializationOptions: { debounceMs: 0 } });
    try {
      for (const [rel, version] of [['plugin.json', 1], ['mcp.json', 1], ['skills/alpha/SKILL.md', 1]] as const) {
        const uri = fileUri(path.join(plugin, rel));
        await openDoc(s, uri, fs.readFileSync(path.join(plugin, rel), 'utf8'), version);
        await s.waitForDiagnostics(uri, (p) => p.version === version);
      }
    } finally {
      await s.stop();
    }
    nothingRan('the language server');
  });

  it('--enable-plugin-mcp <plugin>.<server> starts that server alone, with what mcp.json declares and without the caller\'s secret', () => {
    const r = cli(['list', '--no-defaults', '--plugin', plugin, '--state-dir', state, '--enable-plugin-mcp', 'kit.srv']);
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /kit\.srv: up, 1 skill\(s\)/);
    assert.match(r.stdout, /mcp:kit\.srv:gated/);
    assert.match(r.stdout, /declares MCP server\(s\) kit\.shell \(sh\), not started/, 'the other server is still only declared');
    assert.equal(fs.existsSync(shellMarker), false, 'the server not named did not start');
    const started = fs.readFileSync(marker, 'utf8');
    assert.doesNotMatch(started, new RegExp(SECRET), 'the caller\'s secret reached the plugin\'s server');
    assert.doesNotMatch(started, /^SECRET_TOKEN=/m);
    assert.match(started, /^DECLARED=yes$/m);
    assert.match(started, new RegExp(`^PLUGIN_ROOT=${fs.realpathSync(plugin)}$`, 'm'));
    assert.match(started, new RegExp(`^HOME=${pluginDataDir(path.join(state, 'plugin-data'), { name: 'kit', root: plugin, version: '1.0.0' })}$`, 'm'), 'HOME is the plugin\'s data folder, not the user\'s');
    assert.match(started, /^PATH=/m);
  });

  it('--enable-plugin-mcp naming a server no plugin declares is a usage error that lists the declared ones', () => {
    const r = cli(['list', '--no-defaults', '--plugin', plugin, '--state-dir', state, '--enable-plugin-mcp', 'kit.nope']);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /--enable-plugin-mcp kit\.nope: no plugin read here declares an MCP server of that name\. Declared: kit\.srv, kit\.shell\./);
    nothingRan('a refused --enable-plugin-mcp');
  });
});
