// Agent Plugins in a real VS Code (issue 13 point 6): a plugin folder outside the workspace, recorded in VS Code's
// own installed-plugins file (<user data>/User/agent-plugins/installed.json, the format VS Code 1.139 writes),
// shows under "Plugins" in the Skills view with its version, the host that installed it and its skill; a folder
// recorded there that is not a plugin shows as not loaded, with the reason; and the plugin skill's body reaches
// the scripted model through @skills after the model loads it. Removing the record removes the group.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as vscode from 'vscode';
import { COMMANDS, TOOL_NAMES } from '../../../src/extension/ids';
import { activatedExtension } from '../helpers/extension';
import { askSkills } from '../helpers/chat';
import { scriptedChatModel, setScript, waitForRequests } from '../helpers/scriptedModel';
import { describeTree, flatten, type DescribedNode } from '../helpers/skillsUi';
import { waitFor } from '../helpers/waitFor';

const SKILL = 'relay-notes';
const BODY = 'Write every relay note in the PLUGIN-RELAY format.';

async function pluginsGroup(): Promise<DescribedNode | undefined> {
  return (await describeTree()).available.find((n) => n.label === 'Plugins');
}

describe('Agent Plugins that VS Code installed', function () {
  this.timeout(120_000);
  let tmp: string;
  let installed: string;

  before(async () => {
    await activatedExtension();
    await scriptedChatModel();
    const userData = process.env.SKILLS_TEST_USER_DATA_DIR;
    assert.ok(userData, 'the harness sets SKILLS_TEST_USER_DATA_DIR to the user data folder of this VS Code');
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skills-agent-plugin-'));
    const plugin = path.join(tmp, 'agent-plugins', 'relay');
    fs.mkdirSync(path.join(plugin, 'skills', SKILL), { recursive: true });
    fs.writeFileSync(path.join(plugin, 'plugin.json'), JSON.stringify({ $schema: 'https://agent-plugins.org/schemas/1.0.0/plugin.schema.json', name: 'relay', version: '1.2.0', description: 'Relay tools.' }));
    fs.writeFileSync(path.join(plugin, 'skills', SKILL, 'SKILL.md'), `---\nname: ${SKILL}\ndescription: Formats relay notes. Use when the user asks for relay notes.\n---\n\n${BODY}\n`);
    const notPlugin = path.join(tmp, 'agent-plugins', 'half-installed');
    fs.mkdirSync(notPlugin, { recursive: true });
    installed = path.join(userData, 'User', 'agent-plugins', 'installed.json');
    fs.mkdirSync(path.dirname(installed), { recursive: true });
    fs.writeFileSync(
      installed,
      JSON.stringify({ version: 1, installed: [{ pluginUri: pathToFileURL(plugin).href, marketplace: 'example/marketplace', name: 'relay' }, { pluginUri: pathToFileURL(notPlugin).href, marketplace: 'example/marketplace' }] }, null, '\t'),
    );
  });
  after(async () => {
    fs.rmSync(installed, { force: true });
    await vscode.commands.executeCommand(COMMANDS.refresh);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('shows the plugin under Plugins with its version, host and skill, and the folder that is not a plugin with why', async () => {
    // The watcher on installed.json picks the change up; Refresh does the same for a folder created after it started.
    const group = await waitFor(
      'the Plugins group with the relay plugin',
      async () => {
        const g = await pluginsGroup();
        if (g?.children.some((c) => c.label === 'relay')) return g;
        await vscode.commands.executeCommand(COMMANDS.refresh);
        return undefined;
      },
      60_000,
    );
    const relay = group.children.find((c) => c.label === 'relay')!;
    assert.match(relay.description ?? '', /^v1\.2\.0 · installed by VS Code · 1 skill\(s\)$/);
    const skill = flatten(relay.children).find((n) => n.node.kind === 'skill');
    assert.ok(skill && skill.node.kind === 'skill', `no skill under relay: ${JSON.stringify(relay.children.map((c) => c.label))}`);
    assert.equal(skill.node.record.id, `plugin:relay:${SKILL}`);
    assert.equal(skill.contextValue, 'skill.ok');
    const broken = group.children.find((c) => c.label === 'half-installed');
    assert.ok(broken, `the folder that is not a plugin is not shown: ${group.children.map((c) => c.label).join(', ')}`);
    assert.equal(broken.contextValue, 'plugin.rejected');
    assert.match(broken.description ?? '', /^not loaded: .*is not a plugin: it has no plugin\.json/);
  });

  it("carries the plugin skill's body to the model through @skills once the model loads it", async () => {
    await setScript([{ toolCalls: [{ name: TOOL_NAMES.load, input: { names: [SKILL] } }] }, { text: 'Formatted.' }]);
    await askSkills('format the relay notes');
    const requests = await waitForRequests(2, 60_000);
    assert.match(JSON.stringify(requests[0].messages[0]), new RegExp(`<name>${SKILL}</name>`), 'the plugin skill is in <available_skills>');
    assert.match(JSON.stringify(requests[1].messages[0]), new RegExp(BODY.replace(/\./g, '\\.')), 'the loaded plugin skill body reaches the model');
  });

  it("is left to VS Code in Copilot's agent session while chat.plugins.enabled is on (never listed twice), and listed when it is off", async () => {
    const listed = async () => {
      const r = await vscode.lm.invokeTool(TOOL_NAMES.list, { input: {}, toolInvocationToken: undefined });
      return r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
    };
    const chat = vscode.workspace.getConfiguration('chat');
    try {
      await chat.update('plugins.enabled', false, vscode.ConfigurationTarget.Global);
      assert.match(await listed(), new RegExp(`<name>${SKILL}</name>`), 'VS Code does not serve plugins: ours lists it');
      await chat.update('plugins.enabled', true, vscode.ConfigurationTarget.Global);
      assert.doesNotMatch(await listed(), new RegExp(`<name>${SKILL}</name>`), 'VS Code serves this plugin itself: not listed a second time');
    } finally {
      await chat.update('plugins.enabled', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('drops the group when VS Code forgets the plugin', async () => {
    fs.writeFileSync(installed, JSON.stringify({ version: 1, installed: [] }));
    await waitFor(
      'the Plugins group to go',
      async () => {
        if (!(await pluginsGroup())) return true;
        await vscode.commands.executeCommand(COMMANDS.refresh);
        return undefined;
      },
      60_000,
    );
  });

  it('Create Plugin writes a valid plugin in the workspace, adds it to agentSkills.pluginLocations and shows it under Plugins', async () => {
    const ws = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const created = await vscode.commands.executeCommand<vscode.Uri | undefined>(COMMANDS.createPlugin, { parent: tmp, name: 'made-here', skill: 'made-guide', description: 'Guides the made-here work. Use when the user asks for it.' });
    assert.ok(created, 'the command returned the new plugin.json');
    assert.equal(path.basename(created.fsPath), 'plugin.json');
    const plugin = await waitFor(
      'the created plugin under Plugins',
      async () => (await pluginsGroup())?.children.find((c) => c.label === 'made-here'),
      60_000,
    );
    assert.match(plugin.description ?? '', /installed by your settings · 1 skill\(s\)/);
    const locations = vscode.workspace.getConfiguration('agentSkills').inspect<string[]>('pluginLocations');
    assert.ok([...(locations?.globalValue ?? []), ...(locations?.workspaceValue ?? [])].some((l) => path.resolve(ws, l) === path.join(tmp, 'made-here')), JSON.stringify(locations));
    await vscode.workspace.getConfiguration('agentSkills').update('pluginLocations', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('agentSkills').update('pluginLocations', undefined, vscode.ConfigurationTarget.Workspace);
  });
});
