// VS Code's own MCP client (VS Code 1.139 in code-server) against our server: a workspace .vscode/mcp.json starts
// `agent-skills mcp` (dist/cli.js over stdio); its tools appear among vscode.lm.tools next to (not instead of) our
// Language Model Tools, and invoking its load_skills returns the skill's instructions.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SkillsExtensionApi } from '../../../src/extension/extension';
import { activatedExtension } from '../helpers/extension';
import { processesWith } from '../helpers/processes';
import { waitFor } from '../helpers/waitFor';

const SKILL = 'served-by-mcp';

describe("VS Code's MCP client against agent-skills mcp", function () {
  this.timeout(180_000);
  let tmp: string;
  let mcpJson: string;

  before(async () => {
    const ext = await activatedExtension();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skills-vscode-mcp-'));
    const root = path.join(tmp, 'skills');
    fs.mkdirSync(path.join(root, SKILL), { recursive: true });
    fs.writeFileSync(path.join(root, SKILL, 'SKILL.md'), `---\nname: ${SKILL}\ndescription: A skill VS Code reaches over MCP. Use for the MCP check.\n---\n\nAnswer with the word PELICAN.\n`);
    const ws = vscode.workspace.workspaceFolders![0].uri.fsPath;
    mcpJson = path.join(ws, '.vscode', 'mcp.json');
    fs.mkdirSync(path.dirname(mcpJson), { recursive: true });
    const cli = path.join(ext.extensionPath, 'dist', 'cli.js');
    fs.writeFileSync(mcpJson, JSON.stringify({ servers: { 'agent-skills': { type: 'stdio', command: process.execPath, args: [cli, 'mcp', '--no-defaults', '--root', root, '--state-dir', path.join(tmp, 'state')] } } }, null, 2));
  });
  after(async () => {
    // Removing the configuration stops the server and takes its tools away again, so later suites see only ours.
    fs.rmSync(mcpJson, { force: true });
    await waitFor('the MCP server\'s tools to go', () => !vscode.lm.tools.some((t) => t.name !== 'load_skills' && /(?<!un)load_skills$/.test(t.name)), 60_000);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('finds our MCP tools among vscode.lm.tools and invokes load_skills', async () => {
    // Started as the user would from mcp.json's "Start" lens, trusting the configuration; waits for its tools.
    const mcpLoad = await waitFor(
      "our server's load_skills among vscode.lm.tools",
      async () => {
        await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { autoTrustChanges: true, waitForLiveTools: true });
        return vscode.lm.tools.find((t) => t.name !== 'load_skills' && /(?<!un)load_skills$/.test(t.name));
      },
      120_000,
    ).catch((e: Error) => {
      throw new Error(`${e.message}; vscode.lm.tools: ${vscode.lm.tools.map((t) => t.name).join(', ')}`);
    });
    console.log(`      VS Code names our MCP server's tool ${mcpLoad.name}`);
    assert.ok(vscode.lm.tools.some((t) => t.name === 'load_skills'), 'our Language Model Tool stays registered beside it');
    const result = await vscode.lm.invokeTool(mcpLoad.name, { input: { names: [SKILL] }, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
    const text = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
    assert.match(text, /Answer with the word PELICAN/);
  });

  it("starts the server our extension offers through registerMcpServerDefinitionProvider, with no tools: Copilot's agent sees each of our tools once", async () => {
    const api = (await activatedExtension()).exports as SkillsExtensionApi;
    const marker = path.join(api.service.stateDir, 'mcp-served');
    const before = vscode.lm.tools.map((t) => t.name).sort();
    const server = await waitFor(
      'the offered agent-skills mcp --no-tools process',
      async () => {
        await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { autoTrustChanges: true, waitForLiveTools: true });
        return [...processesWith(marker).values()].find((c) => c.includes(' mcp --no-tools '));
      },
      120_000,
    );
    assert.match(server, /--plugin |--root /, `it serves the window's skill folders: ${server}`);
    const ours = vscode.lm.tools.filter((t) => /load_skills$/.test(t.name)).map((t) => t.name);
    assert.deepEqual(vscode.lm.tools.map((t) => t.name).sort(), before, 'starting it added no tool');
    assert.equal(ours.filter((n) => n === 'load_skills').length, 1);
  });
});

describe('agentSkills.mcp.provide governs the server offered to VS Code', function () {
  this.timeout(300_000);
  const setMode = (mode: string | undefined) => vscode.workspace.getConfiguration('agentSkills').update('mcp.provide', mode, vscode.ConfigurationTarget.Global);
  const startAll = () => vscode.commands.executeCommand('workbench.mcp.startServer', '*', { autoTrustChanges: true, waitForLiveTools: true });
  after(async () => {
    await setMode(undefined);
  });

  it('off: VS Code stops the offered server and starts none; tools: it is offered with its tools, which load a workspace skill', async () => {
    const api = (await activatedExtension()).exports as SkillsExtensionApi;
    const marker = path.join(api.service.stateDir, 'mcp-served');
    const offered = () => [...processesWith(marker).values()].filter((c) => c.includes(' mcp '));
    assert.equal(vscode.workspace.getConfiguration('agentSkills').get('mcp.provide'), 'resources', 'the default offers resources and prompts');
    await waitFor('the offered server in its default mode', async () => {
      await startAll();
      return offered().find((c) => c.includes(' mcp --no-tools '));
    }, 120_000);

    await setMode('off');
    await waitFor('VS Code to stop the offered server once the setting is off', () => offered().length === 0, 60_000);
    await startAll();
    assert.deepEqual(offered(), [], 'starting every MCP server starts none of ours while the setting is off');

    const before = new Set(vscode.lm.tools.map((t) => t.name));
    await setMode('tools');
    const server = await waitFor('the offered server with its tools', async () => {
      await startAll();
      return offered().find((c) => c.includes(' mcp --no-defaults '));
    }, 120_000);
    assert.doesNotMatch(server, /--no-tools/);
    const load = await waitFor('its load_skills among vscode.lm.tools', () => vscode.lm.tools.find((t) => !before.has(t.name) && /(?<!un)load_skills$/.test(t.name)), 60_000);
    assert.ok(vscode.lm.tools.some((t) => t.name === 'load_skills'), 'our Language Model Tool stays registered beside it');
    const result = await vscode.lm.invokeTool(load.name, { input: { names: ['greeting'] }, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
    const text = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
    assert.match(text, /Run the bundled script with the person's name/, 'the workspace skill, served by the offered server');

    await setMode(undefined);
    await waitFor('the tools-mode server to stop when the mode changes back', () => !offered().some((c) => c.includes(' mcp --no-defaults ')), 60_000);
    await waitFor('its tools to go', () => !vscode.lm.tools.some((t) => t.name === load.name), 60_000);
  });
});
