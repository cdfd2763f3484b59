// Restricted Mode as the user sees it (issue 27, found trying the playground): the Skills view says that the
// workspace's skills are hidden until the folder is trusted and leads to Manage Workspace Trust (not "No Agent
// Skills found" and Create Skill), and Run Script's error leads with the action and has that button.
// Read and clicked on the workbench's page.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMMANDS, VIEWS } from '../../../src/extension/ids';
import { activatedExtension } from '../helpers/extension';
import { describeTree } from '../helpers/skillsUi';
import { waitFor } from '../helpers/waitFor';
import { clickUi, readUi } from '../helpers/workbenchDom';

/** Waits for VS Code's Workspace Trust editor (what the button opens), then closes it. */
async function trustEditorOpened(): Promise<void> {
  const tab = await waitFor('the Workspace Trust editor to open', () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => /Workspace Trust/.test(t.label)), 30_000);
  await vscode.window.tabGroups.close(tab);
}

describe('Restricted Mode as the user sees it', function () {
  this.timeout(120_000);

  before(async () => {
    await activatedExtension();
    await vscode.commands.executeCommand(COMMANDS.refresh);
    assert.equal(vscode.workspace.isTrusted, false, 'the harness should have opened the workspace untrusted');
  });

  it('the empty Skills view says the workspace skills are hidden until the folder is trusted; its button opens Manage Workspace Trust', async () => {
    assert.deepEqual((await describeTree()).available, [], 'this test needs an empty Available view (no home or extension skills)');
    await vscode.commands.executeCommand(`workbench.view.extension.${VIEWS.container}`);
    const welcome = await readUi('.welcome-view-content', 'hidden until you trust');
    assert.doesNotMatch(welcome.text, /No Agent Skills found|Create Skill/, welcome.text);
    assert.ok(welcome.buttons.includes('Manage Workspace Trust'), `buttons: ${welcome.buttons.join(', ')}`);
    await clickUi('.welcome-view-content .monaco-button', 'Manage Workspace Trust');
    await trustEditorOpened();
  });

  it('with other skills listed, its first line says the workspace skills are hidden; clicking it opens Manage Workspace Trust', async () => {
    // A skill in the home folder: the view then lists it, and the welcome content no longer shows.
    const dir = path.join(os.homedir(), '.agents', 'skills', 'home-skill');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'SKILL.md'), '---\nname: home-skill\ndescription: A skill of the home folder. Use when testing Restricted Mode.\n---\n\nNothing to do.\n');
    try {
      await vscode.commands.executeCommand(COMMANDS.refresh);
      const nodes = await waitFor('home-skill in the Available view', async () => {
        const n = (await describeTree()).available;
        return JSON.stringify(n).includes('home-skill') ? n : undefined;
      });
      assert.equal(nodes[0]?.label, '4 workspace skill(s) hidden until you trust this folder', `first line: ${nodes.map((n) => n.label).join(' | ')}`);
      assert.equal(nodes[0].contextValue, 'untrusted');
      const row = await readUi('.part.sidebar .monaco-list-row', 'hidden until you trust this folder');
      assert.doesNotMatch(row.text, /No Agent Skills found/);
      await clickUi('.part.sidebar .monaco-list-row', 'hidden until you trust this folder');
      await trustEditorOpened();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      await vscode.commands.executeCommand(COMMANDS.refresh);
    }
  });

  it("Run Script's error leads with the action, and its Manage Workspace Trust button opens it", async () => {
    const outcome = await vscode.commands.executeCommand<{ ran: boolean; reason?: string }>(COMMANDS.runScript, { skill: 'greeting', script: 'scripts/greet.sh', args: ['Ada'] });
    assert.equal(outcome.ran, false);
    assert.match(outcome.reason ?? '', /^Trust this folder to run skill scripts/, outcome.reason);
    // The smoke-test driver of the test session keeps pop-ups off screen; the notification center lists them.
    await vscode.commands.executeCommand('notifications.showList');
    const row = await readUi('.notifications-center .monaco-list-row', 'Trust this folder to run skill scripts');
    assert.ok(row.buttons.includes('Manage Workspace Trust'), `buttons: ${row.buttons.join(', ')}`);
    await clickUi('.notifications-center .monaco-list-row .monaco-button', 'Manage Workspace Trust');
    await trustEditorOpened();
  });
});
