// Agent Plugins 1.0 Appendix A, the items not held item by item elsewhere. Where another test holds an item, it is
// named here (and not repeated):
//   Plugin loader: parse and validate plugin.json; $schema and name; §5.5 names; unknown fields reported and ignored;
//     extensions namespaces not looked into; paths outside the root refused -> readPlugin.test.ts (§5.1-§5.5, §8.1,
//     §4.1 tests, and the SKILL.md link test through the registry).
//   Component discovery: fixed skills/ scanned, a missing one is no error -> readPlugin.test.ts (§6.2/§7.1).
//   MCP configuration: $schema then the closed schema and each variant; remote URL and header rules ->
//     pluginMcpConfig.test.ts; stdio implemented and used end to end -> its list --plugin test.
//   Environment: PLUGIN_ROOT / PLUGIN_DATA for scripts -> test/core/exec/pluginRuns.test.ts, for MCP servers ->
//     pluginMcpConfig.test.ts; single-token command, default cwd, cwd forms and containment, expansion of only the two
//     placeholders -> pluginMcpConfig.test.ts.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MCP_SCHEMA_1_0, pluginDataDir, pluginMcpServers, pluginSkillRoots, PLUGIN_SCHEMA_1_0, readPlugin, readPluginMcp, readPlugins } from '../../../src/core/plugins';
import { createSkillRegistry } from '../../../src/core/registry';
import { fileWriter } from '../../support/tempDir';

describe('Agent Plugins 1.0 Appendix A: the remaining checklist items', () => {
  let base: string;
  let root: string;
  const write = fileWriter(() => root);
  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'appendix-a-'));
    root = path.join(base, 'kit');
    write('plugin.json', JSON.stringify({ $schema: PLUGIN_SCHEMA_1_0, name: 'kit', version: '1.0.0', extensions: { 'com.example.other': { anything: [1, { deep: true }] } } }));
    write('skills/alpha/SKILL.md', '---\nname: alpha\ndescription: Use alpha for the alpha task.\n---\n# Alpha\n');
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  it('§8.2: a top-level namespace directory of an extension this client does not implement is ignored, without a problem', () => {
    write('com.example.other/config.yaml', 'x: 1');
    const r = readPlugin(root);
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.skillRoots.flatMap((s) => s.skills), ['alpha']);
  });

  it('§11.3: component types this client does not support (agents/, hooks/, commands/) are ignored; skills still load', () => {
    write('agents/reviewer.md', '# reviewer');
    write('hooks/hooks.json', '{}');
    write('commands/deploy.md', '# deploy');
    const r = readPlugin(root);
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.skillRoots.flatMap((s) => s.skills), ['alpha']);
  });

  it('§7.2.1/§7.2.2: a server over a transport this client does not speak (legacy SSE) is skipped alone; the stdio and HTTP ones are kept with their declared transport', () => {
    write('mcp.json', JSON.stringify({ $schema: MCP_SCHEMA_1_0, mcpServers: { old: { type: 'sse', url: 'https://legacy.example.com/sse' }, local: { type: 'stdio', command: 'node' }, web: { type: 'streamable-http', url: 'https://mcp.example.com/mcp' } } }));
    const plugin = readPlugin(root);
    const read = readPluginMcp(plugin, path.join(base, 'data'));
    assert.match(read.servers.find((s) => s.server === 'old')?.unsupported ?? '', /legacy HTTP\+SSE/);
    const { configs } = pluginMcpServers([plugin], path.join(base, 'data'), { enabled: ['kit.old', 'kit.local', 'kit.web'] });
    assert.deepEqual(configs.map((c) => [c.name, 'command' in c ? 'stdio' : 'streamable-http']), [['kit.local', 'stdio'], ['kit.web', 'streamable-http']]);
  });

  it('§11.3: an independent component that fails (an invalid mcp.json) leaves the skills loading', async () => {
    write('mcp.json', '{ "mcpServers": ');
    const plugins = readPlugins([root]);
    const mcp = pluginMcpServers(plugins, path.join(base, 'data'));
    assert.equal(mcp.configs.length, 0);
    assert.match(mcp.problems[0].message, /MCP is disabled for plugin "kit"; its skills still load/);
    const records = (await createSkillRegistry({ roots: pluginSkillRoots(plugins) }).refresh()).records;
    assert.deepEqual(records.map((r) => [r.id, r.status]), [['plugin:kit:alpha', 'ok']]);
  });

  it('§9.1: configured env is laid over the base and PLUGIN_ROOT / PLUGIN_DATA are set after it (an entry naming them is refused, §9.2)', () => {
    write('mcp.json', JSON.stringify({ $schema: MCP_SCHEMA_1_0, mcpServers: { a: { type: 'stdio', command: 'node', env: { MODE: 'fast' } }, b: { type: 'stdio', command: 'node', env: { PLUGIN_DATA: '/tmp/elsewhere' } } } }));
    const r = readPluginMcp(readPlugin(root), path.join(base, 'data'));
    const a = r.servers.find((s) => s.server === 'a')!.config as { env: Record<string, string> };
    assert.equal(a.env.MODE, 'fast');
    assert.equal(a.env.PLUGIN_DATA, pluginDataDir(path.join(base, 'data'), { name: 'kit', root, version: readPlugin(root).manifest?.version }));
    assert.equal(r.servers.some((s) => s.server === 'b'), false);
    assert.match(r.problems.map((p) => p.message).join('\n'), /server "b": "env" must not set PLUGIN_ROOT or PLUGIN_DATA/);
  });
});
