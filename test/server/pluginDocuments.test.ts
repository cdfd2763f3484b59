// plugin.json and mcp.json of Agent Plugins in the real language server over stdio (issue 13 point 5): the rules a
// schema cannot express, each with its spec section, live on the editor's text; a plugin.json that is not a
// plugin's gets nothing; skill features (completion) stay out of JSON files.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CompletionRequest } from 'vscode-languageserver-protocol/node';
import { MCP_SCHEMA_1_0, PLUGIN_SCHEMA_1_0 } from '../../src/core/plugins';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { changeDoc, fileUri, openDoc, startServer, type LspSession } from './lspTestClient';
import { fileWriter } from '../support/tempDir';

describe('language server: plugin.json and mcp.json of Agent Plugins', function () {
  this.timeout(30_000);
  let ws: string;
  let s: LspSession;
  const write = fileWriter(() => ws);
  before(function () {
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });
  beforeEach(async () => {
    ws = fs.mkdtempSync(path.join(os.tmpdir(), 'lsp-plugin-'));
    write('tools/plugin.json', JSON.stringify({ $schema: PLUGIN_SCHEMA_1_0, name: 'tools' }));
    write('tools/skills/alpha/SKILL.md', '---\nname: alpha\ndescription: Use alpha for the alpha task.\n---\n# Alpha\n');
    write('tools/skills/loose/readme.md', 'not a skill');
    write('elsewhere/plugin.json', '{ "name": "Not An Agent Plugin", "main": "index.js" }');
    s = await startServer({ workspaceFolders: [ws], initializationOptions: { debounceMs: 0, scanWorkspace: false } });
  });
  afterEach(async () => {
    await s.stop();
    fs.rmSync(ws, { recursive: true, force: true });
  });

  it('plugin.json: a name against §5.5 is an error on the name field, fixed live; skills/ entries that are not skills are named', async () => {
    const uri = fileUri(path.join(ws, 'tools', 'plugin.json'));
    const bad = `{\n  "$schema": "${PLUGIN_SCHEMA_1_0}",\n  "name": "Tools_Plugin"\n}\n`;
    await openDoc(s, uri, bad, 1);
    const first = await s.waitForDiagnostics(uri, (p) => p.version === 1);
    const name = first.diagnostics.find((d) => d.code === 'plugin-manifest');
    assert.ok(name, JSON.stringify(first.diagnostics));
    assert.match(String(name.message), /"Tools_Plugin" is not a plugin name/);
    assert.equal(name.range.start.line, 2, 'on the line of "name"');
    await changeDoc(s, uri, bad.replace('Tools_Plugin', 'tools'), 2);
    const second = await s.waitForDiagnostics(uri, (p) => p.version === 2);
    assert.deepEqual(second.diagnostics.filter((d) => d.severity === 1), [], 'fixed in the buffer, before saving');
    const loose = second.diagnostics.find((d) => d.code === 'plugin-skills');
    assert.match(String(loose?.message), /skills\/loose has no SKILL\.md .*not a skill/, 'the skills/ entry that is not a skill is named on the manifest');
    const completion = await s.conn.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: 2, character: 5 } });
    assert.ok(completion === null || (Array.isArray(completion) ? completion.length === 0 : completion.items.length === 0), 'no SKILL.md completions in plugin.json');
  });

  it('mcp.json: a shell command line, a $schema of another version, and http to a remote host, each with the section', async () => {
    const uri = fileUri(path.join(ws, 'tools', 'mcp.json'));
    const text = JSON.stringify({ $schema: MCP_SCHEMA_1_0, mcpServers: { db: { type: 'stdio', command: 'npx db --port 1' }, api: { type: 'streamable-http', url: 'http://api.example.com/mcp' } } }, null, 2);
    await openDoc(s, uri, text, 1);
    const d = await s.waitForDiagnostics(uri, (p) => p.version === 1);
    const messages = d.diagnostics.map((x) => `${x.code}: ${x.message}`).join('\n');
    assert.match(messages, /plugin-mcp: .*server "db": "command" .* one executable token/);
    assert.match(messages, /plugin-mcp: .*server "api": .*only localhost and loopback addresses may use http/);
    assert.ok(d.diagnostics.every((x) => x.range.start.line > 0), 'each points into the file');
    await changeDoc(s, uri, JSON.stringify({ $schema: 'https://agent-plugins.org/schemas/2.0.0/mcp.schema.json', mcpServers: {} }), 2);
    const v2 = await s.waitForDiagnostics(uri, (p) => p.version === 2);
    assert.match(v2.diagnostics.map((x) => x.message).join('\n'), /"\$schema" must be .*same Agent Plugins version as plugin\.json/);
  });

  it('a plugin.json outside any Agent Plugin gets no findings', async () => {
    const uri = fileUri(path.join(ws, 'elsewhere', 'plugin.json'));
    await openDoc(s, uri, fs.readFileSync(path.join(ws, 'elsewhere', 'plugin.json'), 'utf8'), 1);
    const d = await s.waitForDiagnostics(uri);
    assert.deepEqual(d.diagnostics, []);
  });
});
