// The JSON schemas the extension contributes for plugin.json and mcp.json (jsonValidation): bundled, applied only
// to files that name the Agent Plugins schema (so other tools' plugin.json and VS Code's .vscode/mcp.json are left
// alone), and agreeing with the core checks on the shape (the same documents pass and fail in both).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import { MCP_SCHEMA_1_0, PLUGIN_SCHEMA_1_0, readStandardManifest } from '../../src/core/plugins';

const repo = path.resolve(__dirname, '../..');
const load = (name: string) => JSON.parse(fs.readFileSync(path.join(repo, 'schemas', name), 'utf8')) as object;

describe('bundled JSON schemas for Agent Plugins (plugin.json, mcp.json)', () => {
  const ajv = new Ajv({ allErrors: true, strict: false });
  const plugin = ajv.compile(load('agent-plugin.schema.json'));
  const mcp = ajv.compile(load('agent-plugin-mcp.schema.json'));

  it('are contributed with jsonValidation from files in the package (never a URL to fetch)', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { contributes: { jsonValidation: { fileMatch: string | string[]; url: string }[] } };
    const urls = manifest.contributes.jsonValidation.map((v) => v.url);
    assert.ok(urls.includes('./schemas/agent-plugin.schema.json') && urls.includes('./schemas/agent-plugin-mcp.schema.json'));
    for (const u of urls) assert.ok(u.startsWith('./') && fs.existsSync(path.join(repo, u)), u);
  });

  it('plugin.json: the same manifests pass and fail as in the core reader', () => {
    const cases: [unknown, boolean][] = [
      [{ $schema: PLUGIN_SCHEMA_1_0, name: 'tools', version: '1.0.0', author: { name: 'A' }, keywords: ['x'], extensions: { 'com.example': { a: 1 } } }, true],
      [{ $schema: PLUGIN_SCHEMA_1_0, name: 'Tools' }, false],
      [{ $schema: PLUGIN_SCHEMA_1_0, name: 'a--b' }, false],
      [{ $schema: PLUGIN_SCHEMA_1_0 }, false],
      [{ $schema: PLUGIN_SCHEMA_1_0, name: 'tools', author: { name: 'A', phone: '1' } }, false],
    ];
    for (const [doc, ok] of cases) {
      assert.equal(plugin(doc), ok, `schema on ${JSON.stringify(doc)}: ${JSON.stringify(plugin.errors)}`);
      assert.equal(readStandardManifest(JSON.stringify(doc), '/p/plugin.json').manifest !== undefined, ok, `core on ${JSON.stringify(doc)}`);
    }
  });

  it("plugin.json of other tools (no Agent Plugins $schema) and VS Code's .vscode/mcp.json are left alone", () => {
    assert.equal(plugin({ name: 'Some Babel Plugin', main: 'index.js' }), true);
    assert.equal(mcp({ servers: { x: { type: 'stdio', command: 'node server.js' } }, inputs: [] }), true);
  });

  it('mcp.json: closed variants, one-token command, cwd forms, https except loopback, reserved env names', () => {
    const doc = (server: unknown) => ({ $schema: MCP_SCHEMA_1_0, mcpServers: { s: server } });
    const cases: [unknown, boolean][] = [
      [{ type: 'stdio', command: 'node', args: ['${PLUGIN_ROOT}/x.js'], cwd: '${PLUGIN_DATA}/db' }, true],
      [{ type: 'stdio', command: './bin/server' }, true],
      [{ type: 'stdio', command: 'node server.js' }, false],
      [{ type: 'stdio', command: 'bin/server' }, false],
      [{ type: 'stdio', command: 'node', cwd: '/tmp' }, false],
      [{ type: 'stdio', command: 'node', env: { PLUGIN_ROOT: '/' } }, false],
      [{ type: 'stdio', command: 'node', url: 'https://x' }, false],
      [{ type: 'streamable-http', url: 'https://mcp.example.com/mcp' }, true],
      [{ type: 'streamable-http', url: 'http://127.0.0.1:8080/mcp' }, true],
      [{ type: 'streamable-http', url: 'http://mcp.example.com/mcp' }, false],
      [{ type: 'streamable-http', url: 'https://u:p@mcp.example.com/mcp' }, false],
      [{ type: 'websocket', url: 'wss://x' }, false],
    ];
    for (const [server, ok] of cases) assert.equal(mcp(doc(server)), ok, `${JSON.stringify(server)}: ${JSON.stringify(mcp.errors)}`);
    assert.equal(mcp({ $schema: MCP_SCHEMA_1_0, mcpServers: {}, extra: 1 }), false);
  });
});
