// A plugin's MCP server that serves skills, in a real VS Code (issue 22 point 2, issue 26 point 7): the plugin's
// mcp.json declares two servers, each our own `agent-skills mcp` (dist/cli.js over stdio). Naming one in
// agentSkills.plugins.enabledMcpServers asks, in a notification that says what will run; declined, nothing starts
// (not while asking, not after a refresh); accepted, the server starts with a scrubbed environment (a secret
// in the extension host's environment is not in the server's /proc/<pid>/environ, what mcp.json declares is) and
// its skill joins the window as mcp:<plugin>.<server>:<skill>, loadable like any other.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SkillsExtensionApi } from '../../../src/extension/extension';
import { COMMANDS } from '../../../src/extension/ids';
import { activatedExtension } from '../helpers/extension';
import { processesWith } from '../helpers/processes';
import { describeTree, flatten } from '../helpers/skillsUi';
import { waitFor } from '../helpers/waitFor';
import { clickUi, countUi, readUi } from '../helpers/workbenchDom';

const PLUGIN = 'relaymcp';
const SKILL = 'plugin-served-notes';
const SECRET_NAME = 'AGENT_SKILLS_TEST_HOST_SECRET';
const SECRET = 'host-secret-must-not-leak';
// The smoke-test driver of the test session keeps pop-ups off screen; the notification center lists them.
const ROW = '.notifications-center .monaco-list-row';

async function question(server: string) {
  await vscode.commands.executeCommand('notifications.showList');
  return readUi(ROW, `Start MCP server '${PLUGIN}.${server}'`, 60_000);
}

async function questionsAbout(server: string): Promise<number> {
  await vscode.commands.executeCommand('notifications.showList');
  return countUi(ROW, `Start MCP server '${PLUGIN}.${server}'`);
}

async function servedRecordIds(): Promise<string[]> {
  return flatten((await describeTree()).available).flatMap((n) => (n.node.kind === 'skill' ? [n.node.record.id] : []));
}

function environOf(pid: number): Map<string, string> {
  const env = new Map<string, string>();
  for (const entry of fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')) {
    const eq = entry.indexOf('=');
    if (eq > 0) env.set(entry.slice(0, eq), entry.slice(eq + 1));
  }
  return env;
}

async function enable(servers: string[] | undefined): Promise<void> {
  await vscode.workspace.getConfiguration('agentSkills').update('plugins.enabledMcpServers', servers, vscode.ConfigurationTarget.Global);
}

describe("A plugin's MCP server that serves skills", function () {
  this.timeout(180_000);
  let api: SkillsExtensionApi;
  let tmp: string;
  let marker: { declined: string; served: string };

  before(async () => {
    const ext = await activatedExtension();
    api = ext.exports as SkillsExtensionApi;
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skills-plugin-mcp-'));
    const served = path.join(tmp, 'served');
    fs.mkdirSync(path.join(served, SKILL), { recursive: true });
    fs.writeFileSync(path.join(served, SKILL, 'SKILL.md'), `---\nname: ${SKILL}\ndescription: Notes a plugin's MCP server serves. Use for plugin-served notes.\n---\n\nWrite every note as PLUGIN-MCP-NOTE.\n`);
    const plugin = path.join(tmp, PLUGIN);
    fs.mkdirSync(plugin, { recursive: true });
    fs.writeFileSync(path.join(plugin, 'plugin.json'), JSON.stringify({ $schema: 'https://agent-plugins.org/schemas/1.0.0/plugin.schema.json', name: PLUGIN, version: '1.0.0', description: 'A plugin whose MCP servers serve skills.' }));
    const cli = path.join(ext.extensionPath, 'dist', 'cli.js');
    // A plugin's server command is one token inside the plugin (Agent Plugins 1.0 §7.2.1): a script that becomes
    // our server. The state folders are the markers: each names its server, so its process is found by its command line.
    fs.writeFileSync(path.join(plugin, 'serve.sh'), `#!/bin/sh\nexec '${process.execPath}' '${cli}' mcp --no-defaults --root '${served}' "$@"\n`, { mode: 0o755 });
    marker = { declined: path.join(tmp, 'state-declined'), served: path.join(tmp, 'state-served') };
    const server = (state: string) => ({ type: 'stdio', command: './serve.sh', args: ['--state-dir', state], env: { DECLARED_BY_PLUGIN: 'yes' } });
    fs.writeFileSync(path.join(plugin, 'mcp.json'), JSON.stringify({ $schema: 'https://agent-plugins.org/schemas/1.0.0/mcp.schema.json', mcpServers: { declined: server(marker.declined), served: server(marker.served) } }, null, 2));
    // The extension host's own environment: a plugin's server must not see it.
    process.env[SECRET_NAME] = SECRET;
    await vscode.workspace.getConfiguration('agentSkills').update('pluginLocations', [plugin], vscode.ConfigurationTarget.Global);
    await waitFor('the plugin under Plugins', async () => flatten((await describeTree()).available).find((n) => n.label === PLUGIN || (n.node.kind === 'plugin' && n.label.includes(PLUGIN))), 60_000);
  });
  after(async () => {
    await enable(undefined);
    await vscode.workspace.getConfiguration('agentSkills').update('pluginLocations', undefined, vscode.ConfigurationTarget.Global);
    delete process.env[SECRET_NAME];
    await waitFor('the plugin servers to stop', () => processesWith(marker.served).size === 0 && processesWith(marker.declined).size === 0, 60_000);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("declined: the server does not start, neither while asking nor after a refresh", async () => {
    await enable([`${PLUGIN}.declined`]);
    const dialog = await question('declined');
    assert.match(dialog.text, /runs \S*serve\.sh/, `the question names the command: ${dialog.text}`);
    assert.ok(dialog.text.includes(marker.declined), `and the arguments: ${dialog.text}`);
    assert.match(dialog.text, /DECLARED_BY_PLUGIN/, 'and the environment names it declares');
    assert.ok(!dialog.text.includes(SECRET_NAME), 'the secret is not among the variables it would get');
    assert.ok(dialog.buttons.includes('Start Server'), `buttons: ${dialog.buttons.join(', ')}`);
    assert.equal(processesWith(marker.declined).size, 0, 'nothing runs while the user is asked');
    await clickUi(`${ROW} .monaco-button`, "Don't Start");
    await waitFor('the question to go', async () => (await questionsAbout('declined')) === 0, 30_000);
    // A refresh reconnects the servers: a declined one is neither asked again nor started.
    await vscode.commands.executeCommand(COMMANDS.refresh);
    await api.service.ready();
    assert.equal(await questionsAbout('declined'), 0, 'not asked again in this window');
    assert.equal(processesWith(marker.declined).size, 0, 'the declined server never started');
    assert.ok(!(await servedRecordIds()).includes(`mcp:${PLUGIN}.declined:${SKILL}`));
  });

  it('accepted: the server starts with a scrubbed environment and its skill joins the window', async () => {
    await enable([`${PLUGIN}.served`]);
    await question('served');
    assert.equal(processesWith(marker.served).size, 0, 'nothing runs before the answer');
    await clickUi(`${ROW} .monaco-button`, 'Start Server');
    const id = `mcp:${PLUGIN}.served:${SKILL}`;
    await waitFor(`${id} in the Skills view`, async () => (await servedRecordIds()).includes(id) || undefined, 90_000);
    const pids = [...processesWith(marker.served).keys()];
    assert.equal(pids.length, 1, `one server process: ${[...processesWith(marker.served).values()].join(' | ')}`);
    const env = environOf(pids[0]);
    assert.equal(process.env[SECRET_NAME], SECRET, 'the secret is still in the extension host');
    assert.equal(env.get(SECRET_NAME), undefined, `the server does not see the extension host's ${SECRET_NAME}`);
    assert.equal(env.get('DECLARED_BY_PLUGIN'), 'yes', 'what mcp.json declares is passed');
    assert.ok(env.get('PATH'), 'PATH is kept');
    assert.notEqual(env.get('HOME'), os.homedir(), `HOME is the plugin's data folder, not yours: ${env.get('HOME')}`);
    assert.equal(processesWith(marker.declined).size, 0, 'the declined one still did not start');
    const { runtime } = await api.service.ready();
    const load = await runtime.invoke('load', { names: [id] }, { sessionId: 'plugin-mcp-suite' });
    assert.ok(load.ok, JSON.stringify(load));
    const loaded = (load as unknown as { result: { active_skills: { name: string; location: string }[] } }).result.active_skills.find((a) => a.name === SKILL);
    assert.ok(loaded, JSON.stringify(load));
    assert.match(fs.readFileSync(loaded.location, 'utf8'), /PLUGIN-MCP-NOTE/, 'fetched from the plugin\'s server into the cache on first use');
  });
});
