// The extension in a real VS Code: activation, its Language Model Tools, and one `@skills`
// chat request answered by the scripted model.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { TOOL_NAMES } from '../../../src/extension/ids';
import { askSkills } from '../helpers/chat';
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

  it('invokes list_skills through vscode.lm.invokeTool and gets the sample workspace\'s skills', async () => {
    const result = await vscode.lm.invokeTool(TOOL_NAMES.list, { input: {}, toolInvocationToken: undefined });
    const text = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
    // Outside @skills this is Copilot's agent's view: VS Code's own skill support (chat.useAgentSkills, on by
    // default) lists the workspace's .github/.claude skills already, so they are left out, never listed twice.
    assert.match(text, /listed by VS Code's own skill support/);
    assert.doesNotMatch(text, /<name>greeting<\/name>/);
    await vscode.workspace.getConfiguration('agentSkills').update('deferToBuiltinSkills', false, vscode.ConfigurationTarget.Workspace);
    try {
      const all = await vscode.lm.invokeTool(TOOL_NAMES.list, { input: {}, toolInvocationToken: undefined });
      const allText = all.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
      assert.match(allText, /<available_skills>/);
      assert.match(allText, /<name>greeting<\/name>/);
      assert.doesNotMatch(allText, /broken-skill|Broken_Skill/, 'a broken skill must not be offered to the model');
    } finally {
      await vscode.workspace.getConfiguration('agentSkills').update('deferToBuiltinSkills', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  it('answers an @skills request through the scripted model, calling list_skills', async function () {
    this.timeout(90_000);
    await scriptedChatModel();
    await setScript([
      { toolCalls: [{ name: TOOL_NAMES.list, input: {} }] },
      { text: 'Here are your skills.' },
    ]);
    await askSkills('which skills do I have?');
    const [first, second] = await waitForRequests(2, 60_000);
    // Our participant sends the composed instructions (first, as a user message: no system role) and the
    // user's prompt; the chat view's own agent would add more.
    assert.equal(first.messages.length, 2, `first request: ${JSON.stringify(first.messages)}`);
    assert.match(JSON.stringify(first.messages[0]), /<available_skills>/);
    const firstText = first.messages.flatMap((m) => m.parts).map((p) => (p.kind === 'text' ? p.value : '')).join('\n');
    assert.match(firstText, /which skills do I have\?/);
    assert.ok(first.tools.some((t) => t.name === TOOL_NAMES.list), `the model was offered: ${first.tools.map((t) => t.name).join(', ')}`);
    const results = second.messages.flatMap((m) => m.parts).filter((p) => p.kind === 'toolResult');
    assert.equal(results.length, 1, `second request: ${JSON.stringify(second.messages)}`);
    assert.match(results[0].kind === 'toolResult' ? results[0].content.join('') : '', /<name>commit-message<\/name>/);
  });

  it('runs a second @skills request in a new chat', async function () {
    this.timeout(90_000);
    await setScript([{ text: 'Nothing to call.' }]);
    await askSkills('hello again');
    const [only] = await waitForRequests(1, 60_000);
    assert.match(JSON.stringify(only.messages), /hello again/);
    assert.doesNotMatch(JSON.stringify(only.messages), /which skills do I have/, 'the new chat carried the earlier request');
  });
});
