// "Run Script…" as the user sees it (issue 27, found trying the playground): the confirmation shows the arguments
// as an editable value and the sandbox explanation in full (no list that typing would filter), and the report
// opens formatted in a tab whose title starts with the skill and the script. Read from the workbench's page.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { describeSandbox } from '../../../src/core/exec/sandboxStatus';
import { COMMANDS } from '../../../src/extension/ids';
import type { SkillsService } from '../../../src/extension/skillsService';
import { activatedExtension } from '../helpers/extension';
import { answering, pressUntil } from '../helpers/prompts';
import { waitFor } from '../helpers/waitFor';
import { countUi, readUi } from '../helpers/workbenchDom';

type RunOutcome = { ran: true; uri: string } | { ran: false; reason: string };

const allTabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs);

describe('Run Script as the user sees it', function () {
  this.timeout(180_000);
  let service: SkillsService;

  before(async () => {
    service = ((await activatedExtension()).exports as { service: SkillsService }).service;
    await service.ready();
  });

  it('the confirmation shows the arguments as its value and the whole sandbox explanation; it has no list for typing to filter', async () => {
    let ended: RunOutcome | undefined;
    const command = vscode.commands.executeCommand<RunOutcome>(COMMANDS.runScript, { skill: 'greeting', script: 'scripts/greet.sh', args: ['Ada Lovelace', '$HOME'] });
    void command.then((o) => (ended = o));
    try {
      const widget = await readUi('.quick-input-widget', 'Run scripts/greet.sh of skill greeting');
      assert.deepEqual(widget.inputs.map((i) => i.value), [`'Ada Lovelace' '$HOME'`], `the arguments are not the input's value: ${JSON.stringify(widget.inputs)}`);
      const shown = widget.text.replace(/\s+/g, ' ');
      const sandbox = describeSandbox(await service.sandboxStatus());
      assert.ok(shown.includes(sandbox), `the sandbox explanation is not shown in full:\n${shown}\nexpected:\n${sandbox}`);
      assert.match(shown, /Enter runs it .* Escape cancels/);
      const cut = widget.clipped.filter((c) => sandbox.includes(c.slice(0, 40)) || c.includes('Ada Lovelace'));
      assert.deepEqual(cut, [], 'text of the confirmation is cut off on screen');
      assert.equal(await countUi('.quick-input-widget .quick-input-list .monaco-list-row'), 0, 'the confirmation offers a list (Run/Cancel) that typing would filter');
    } finally {
      await pressUntil('dismiss', 'the confirmation to close', () => ended !== undefined);
    }
    assert.deepEqual(await command, { ran: false, reason: 'not confirmed' });
  });

  it('the report opens formatted (Markdown preview) in a tab whose title starts with the skill and the script', async () => {
    const outcome = await answering(vscode.commands.executeCommand<RunOutcome>(COMMANDS.runScript, { skill: 'greeting', script: 'scripts/greet.sh', args: ['Grace'] }), 'accept');
    assert.ok(outcome.ran, JSON.stringify(outcome));
    const tab = await waitFor('a tab of the report', () => allTabs().find((t) => t.label.includes('greeting · scripts∕greet.sh')), 30_000);
    assert.match(tab.label, /^(\[Preview\] |Preview )?greeting · scripts∕greet\.sh · exit 0/, `tab title: ${tab.label}`);
    assert.ok(tab.input instanceof vscode.TabInputWebview, `the report is not rendered (tab input ${JSON.stringify(tab.input)})`);
    assert.match(tab.input.viewType, /markdown\.preview/);
    assert.ok(!allTabs().some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === outcome.uri), 'the report is (also) open as raw text');
    // On screen: the tab shows that title.
    const tabDom = await readUi('.tabs-container .tab', 'greeting · scripts∕greet.sh');
    assert.match(tabDom.text, /greeting · scripts∕greet\.sh/);
    // A second run opens a second report: the first report's tab stays.
    const reports = () => allTabs().filter((t) => t.input instanceof vscode.TabInputWebview && t.label.includes('greeting · scripts∕greet.sh · exit 0')).length;
    const before = reports();
    const again = await answering(vscode.commands.executeCommand<RunOutcome>(COMMANDS.runScript, { skill: 'greeting', script: 'scripts/greet.sh', args: ['Ada'] }), 'accept');
    assert.ok(again.ran, JSON.stringify(again));
    await waitFor('a second report tab', () => reports() === before + 1);
  });
});
