// The extension as a user gets it: installed from the .vsix (`npm run package`) with
// `code-server --install-extension`, not loaded from the project folder.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, PARTICIPANT, TOOL_NAMES } from '../../../src/extension/ids';
import { activatedExtension } from '../helpers/extension';

describe('extension installed from the .vsix', () => {
  it('is installed from the extensions folder, not under development', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not installed`);
    assert.match(ext.extensionPath, new RegExp(`${EXTENSION_ID.replace('.', '\\.')}-\\d+\\.\\d+\\.\\d+$`));
    assert.equal(fs.existsSync(path.join(ext.extensionPath, 'src')), false, 'the .vsix carries sources');
    assert.equal(fs.existsSync(path.join(ext.extensionPath, 'node_modules')), false, 'the .vsix carries node_modules');
  });

  it('activates and registers its tools', async () => {
    const ext = await activatedExtension();
    assert.equal(ext.isActive, true);
    for (const name of Object.values(TOOL_NAMES)) {
      assert.ok(vscode.lm.tools.some((t) => t.name === name), `vscode.lm.tools has no ${name}`);
    }
    const result = await vscode.lm.invokeTool(TOOL_NAMES.list, { input: {}, toolInvocationToken: undefined });
    assert.ok(result.content.length > 0, 'skills_list returned nothing');
  });

  it('contributes the @skills participant', async () => {
    const ext = await activatedExtension();
    const participants = (ext.packageJSON as { contributes?: { chatParticipants?: { id: string; name: string }[] } }).contributes?.chatParticipants ?? [];
    assert.deepEqual(participants.map((p) => [p.id, p.name]), [[PARTICIPANT.id, PARTICIPANT.name]]);
  });
});
