// A skill's trigger set in the real VS Code (issue 27 point 1): opening evals/trigger-queries.json starts the
// language server for it, and its findings show in the Problems view and follow the edits.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { activatedExtension } from '../helpers/extension';
import { waitFor } from '../helpers/waitFor';

describe('trigger sets (evals/trigger-queries.json) in the editor', function () {
  this.timeout(120_000);

  before(async () => {
    await activatedExtension();
  });

  it("opening a skill's trigger file shows its problems, and an edit that fixes them clears them", async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'no workspace folder');
    const file = path.join(folder.uri.fsPath, '.github', 'skills', 'greeting', 'evals', 'trigger-queries.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '[\n  { "query": "say hello to Ada for me", "should_trigger": true },\n  { "query": "please greet Grace", "should_trigger": "yes" }\n]\n');
    try {
      const doc = await vscode.workspace.openTextDocument(file);
      await vscode.window.showTextDocument(doc);
      const ours = () => vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source === 'agent-skills');
      const found = await waitFor('the trigger-set findings', () => (ours().length >= 2 ? ours() : undefined), 60_000).catch((e: Error) => {
        throw new Error(`${e.message}; diagnostics of ${doc.uri.toString()} (${doc.languageId}): ${JSON.stringify(vscode.languages.getDiagnostics(doc.uri))}`);
      });
      assert.deepEqual(found.map((d) => String(typeof d.code === 'object' ? d.code.value : d.code)).sort(), ['trigger-balance', 'trigger-field']);
      const edit = new vscode.WorkspaceEdit();
      edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), '[\n  { "query": "say hello to Ada for me", "should_trigger": true },\n  { "query": "translate hello into French", "should_trigger": false }\n]\n');
      assert.ok(await vscode.workspace.applyEdit(edit));
      await waitFor('the findings to clear on the unsaved edit', () => ours().length === 0, 30_000);
    } finally {
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });
});
