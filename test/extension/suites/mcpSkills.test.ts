// MCP-served skills in a real VS Code: agentSkills.mcpServers names our own `agent-skills mcp` (dist/cli.js over
// stdio) serving one skill. It shows in the Skills tree under "MCP servers" with its server, the runtime loads it
// (fetched and verified on first use) and refuses to run its scripts; removing the setting removes it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SkillRecord } from '../../../src/core/registry/registryTypes';
import type { SkillsExtensionApi } from '../../../src/extension/extension';
import { activatedExtension } from '../helpers/extension';
import { describeTree, flatten, type DescribedNode } from '../helpers/skillsUi';
import { waitFor } from '../helpers/waitFor';

const SKILL = 'remote-notes';

async function mcpGroup(): Promise<{ records: SkillRecord[]; nodes: DescribedNode[] } | undefined> {
  const group = (await describeTree()).available.find((n) => n.label === 'MCP servers');
  if (!group) return undefined;
  const nodes = flatten(group.children).filter((n) => n.node.kind === 'skill');
  return { records: nodes.flatMap((n) => (n.node.kind === 'skill' ? [n.node.record] : [])), nodes };
}

describe('MCP-served skills from agentSkills.mcpServers', function () {
  this.timeout(120_000);
  let api: SkillsExtensionApi;
  let tmp: string;

  before(async () => {
    const ext = await activatedExtension();
    api = ext.exports as SkillsExtensionApi;
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skills-mcp-'));
    const root = path.join(tmp, 'served');
    fs.mkdirSync(path.join(root, SKILL, 'scripts'), { recursive: true });
    fs.writeFileSync(path.join(root, SKILL, 'SKILL.md'), `---\nname: ${SKILL}\ndescription: Notes served over MCP. Use for remote notes.\n---\n\nWrite the notes as REMOTE-NOTES.\n`);
    fs.writeFileSync(path.join(root, SKILL, 'scripts', 'x.sh'), 'echo ran\n');
    const cli = path.join(ext.extensionPath, 'dist', 'cli.js');
    await vscode.workspace.getConfiguration('agentSkills').update('mcpServers', [{ name: 'ours', command: process.execPath, args: [cli, 'mcp', '--no-defaults', '--root', root, '--state-dir', path.join(tmp, 'server-state')] }], vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await vscode.workspace.getConfiguration('agentSkills').update('mcpServers', undefined, vscode.ConfigurationTarget.Global);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('shows the skill under "MCP servers" with its server, loads it verified, never runs its scripts, and drops it with the setting', async () => {
    const shown = await waitFor('the MCP-served skill in the Skills tree', async () => (await mcpGroup())?.nodes.find((n) => n.node.kind === 'skill' && n.node.record.id === `mcp:ours:${SKILL}`), 60_000);
    assert.match(shown.description ?? '', /^ours: Notes served over MCP/);
    assert.match(shown.tooltip ?? '', /served by MCP server 'ours'/);
    const { runtime } = await api.service.ready();
    const load = await runtime.invoke('load', { names: [SKILL] }, { sessionId: 'mcp-suite' });
    assert.ok(load.ok, JSON.stringify(load));
    const cached = (await mcpGroup())!.records[0].location;
    assert.match(fs.readFileSync(cached, 'utf8'), /REMOTE-NOTES/, 'fetched into the cache on first use');
    const run = await runtime.invoke('run_script', { skill: SKILL, script: 'scripts/x.sh' }, { sessionId: 'mcp-suite' });
    assert.ok(!run.ok && /instructions only/.test(run.error.message), JSON.stringify(run));
    // A second server that is down: shown under "MCP servers" with the reason; the first one's skill keeps working.
    const cli = path.join((await activatedExtension()).extensionPath, 'dist', 'cli.js');
    const ours = vscode.workspace.getConfiguration('agentSkills').get<unknown[]>('mcpServers') ?? [];
    await vscode.workspace.getConfiguration('agentSkills').update('mcpServers', [...ours, { name: 'gone', command: process.execPath, args: ['-e', 'process.exit(3)', cli] }], vscode.ConfigurationTarget.Global);
    const down = await waitFor(
      'the server that is down under "MCP servers"',
      async () => {
        const group = (await describeTree()).available.find((n) => n.label === 'MCP servers');
        return group?.children.find((c) => c.node.kind === 'problem' && c.label === 'gone');
      },
      60_000,
    );
    assert.match(down.description ?? '', /MCP server 'gone' is not reachable/);
    assert.ok((await mcpGroup())?.records.some((r) => r.id === `mcp:ours:${SKILL}`), 'the other server\'s skill is still listed');
    const again = await runtime.invoke('load', { names: [SKILL] }, { sessionId: 'mcp-suite-2' });
    assert.ok(again.ok, JSON.stringify(again));
    await vscode.workspace.getConfiguration('agentSkills').update('mcpServers', undefined, vscode.ConfigurationTarget.Global);
    await waitFor('the MCP group to go', async () => ((await mcpGroup()) === undefined ? true : undefined), 30_000);
  });
});
