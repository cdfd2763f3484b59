// Screenshots of the real workbench for review (test-results/, git-ignored): the Skills view with its
// two trees, and an @skills conversation that loads a skill. The harness takes them with Playwright once
// the page shows the text named; each test checks the PNG was written.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMMANDS, TOOL_NAMES, VIEWS } from '../../../src/extension/ids';
import { activatedExtension } from '../helpers/extension';
import { scriptedChatModel, setScript, waitForRequests } from '../helpers/scriptedModel';
import { availableSkill, newChat, screenshot, sessionNode } from '../helpers/skillsUi';

describe('screenshots of the Skills view and an @skills conversation', function () {
  this.timeout(120_000);
  let outDir = '';

  before(async () => {
    const ext = await activatedExtension();
    // The checkout's test-results/ unless the harness names another folder (the unprivileged pass of
    // npm test may only read the checkout).
    outDir = process.env.SKILLS_VSCODE_RESULTS_DIR || path.join(ext.extensionPath, 'test-results');
    await scriptedChatModel();
  });

  it('saves test-results/skills-tree.png', async () => {
    await setScript([{ text: 'Ready when you are.' }]);
    await newChat('draft the release notes');
    await waitForRequests(1);
    await vscode.commands.executeCommand(COMMANDS.loadSkill, (await availableSkill('release-notes')).node, (await sessionNode('draft the release notes')).node);
    await vscode.commands.executeCommand(`workbench.view.extension.${VIEWS.container}`);
    const file = path.join(outDir, 'skills-tree.png');
    await screenshot(file, 'Greets someone by name');
    assert.ok(fs.statSync(file).size > 10_000, 'the screenshot is suspiciously small');
  });

  it('saves test-results/skills-chat.png', async () => {
    await setScript([
      { toolCalls: [{ name: TOOL_NAMES.load, input: { names: ['commit-message'] } }] },
      { text: 'Loaded **commit-message**. Subject: "Add release notes template" — written in the imperative, under 50 characters.' },
    ]);
    await newChat('write a commit message for my staged changes');
    await waitForRequests(2);
    await vscode.commands.executeCommand('workbench.action.chat.open');
    const file = path.join(outDir, 'skills-chat.png');
    await screenshot(file, 'written in the imperative');
    assert.ok(fs.statSync(file).size > 10_000, 'the screenshot is suspiciously small');
  });
});
