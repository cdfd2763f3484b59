// The extension in a real VS Code: activation, its Language Model Tools, and one `@skills`
// chat request answered by the scripted model.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { PARTICIPANT, TOOL_NAMES } from '../../../src/extension/ids';
import { activatedExtension } from '../helpers/extension';
import { scriptedChatModel, setScript, waitForRequests } from '../helpers/scriptedModel';

describe('extension in a real VS Code', () => {
  before(async () => {
    await activatedExtension();
  });

  it('activates', async () => {
    const ext = await activatedExtension();
    assert.equal(ext.isActive, true);
  });

  it('lists its tools in vscode.lm.tools with their input schema', () => {
    const tool = vscode.lm.tools.find((t) => t.name === TOOL_NAMES.list);
    assert.ok(tool, `vscode.lm.tools has no ${TOOL_NAMES.list}; it has: ${vscode.lm.tools.map((t) => t.name).join(', ')}`);
    assert.match(tool.description, /skill/i);
    assert.equal((tool.inputSchema as { type?: string } | undefined)?.type, 'object');
  });

  it('invokes skills_list through vscode.lm.invokeTool', async () => {
    const result = await vscode.lm.invokeTool(TOOL_NAMES.list, { input: {}, toolInvocationToken: undefined });
    const text = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
    assert.match(text, /no skills yet/);
  });

  it('answers an @skills request through the scripted model, calling skills_list', async function () {
    this.timeout(90_000);
    await scriptedChatModel();
    await setScript([
      { toolCalls: [{ name: TOOL_NAMES.list, input: {} }] },
      { text: 'Here are your skills.' },
    ]);
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@${PARTICIPANT.name} which skills do I have?` });
    const [first, second] = await waitForRequests(2, 60_000);
    const firstText = first.messages.flatMap((m) => m.parts).map((p) => (p.kind === 'text' ? p.value : '')).join('\n');
    assert.match(firstText, /which skills do I have\?/);
    assert.ok(first.tools.some((t) => t.name === TOOL_NAMES.list), `the model was offered: ${first.tools.map((t) => t.name).join(', ')}`);
    const results = second.messages.flatMap((m) => m.parts).filter((p) => p.kind === 'toolResult');
    assert.equal(results.length, 1, `second request: ${JSON.stringify(second.messages)}`);
    assert.match(results[0].kind === 'toolResult' ? results[0].content.join('') : '', /no skills yet/);
  });
});
