// runSkill and updateSkill (issue 6) in the real VS Code: with agentSkills.toolSurface "minimal", @skills offers
// the scripted model only those two tools and instructions that name only them; the model inspects a workspace
// skill, patches it through updateSkill (the user accepts the confirmation) and runs it. The file on disk, the
// Skills tree and the language server's diagnostics then show the new version.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { digestOf } from '../../../src/core/edit/versionRef';
import type { SkillsExtensionApi } from '../../../src/extension/extension';
import { CATALOG_TOOL_NAMES, TOOL_NAMES } from '../../../src/extension/ids';
import { activatedExtension } from '../helpers/extension';
import { scriptedChatModel, setScript, waitForRequests, type RecordedRequest } from '../helpers/scriptedModel';
import { activeSkillsOf, availableSkill, newChat } from '../helpers/skillsUi';
import { waitFor } from '../helpers/waitFor';

const NEW_DESCRIPTION = 'Drafts release notes from the merged pull requests since the last tag. Use when the user prepares a release.';

function toolResults(r: RecordedRequest): string[] {
  return r.messages.flatMap((m) => m.parts).flatMap((p) => (p.kind === 'toolResult' ? [p.content.join('')] : []));
}

/** A unified diff replacing the description line and adding a field no host defines (a warning in lenient mode). */
function patchFor(text: string): string {
  const lines = text.split('\n');
  const i = lines.findIndex((l) => l.startsWith('description:'));
  assert.ok(i > 0, 'the fixture has no description line');
  const context = lines.slice(0, i).map((l) => ` ${l}`);
  const after = ` ${lines[i + 1]}`;
  return ['--- a/SKILL.md', '+++ b/SKILL.md', `@@ -1,${i + 2} +1,${i + 3} @@`, ...context, `-${lines[i]}`, `+description: ${NEW_DESCRIPTION}`, '+audience: maintainers', after, ''].join('\n');
}

describe('runSkill and updateSkill in a real VS Code', function () {
  this.timeout(120_000);
  let api: SkillsExtensionApi;
  let file: string;
  let original: string;

  before(async () => {
    api = (await activatedExtension()).exports as SkillsExtensionApi;
    await scriptedChatModel();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'no workspace folder is open');
    file = path.join(folder.uri.fsPath, '.claude', 'skills', 'release-notes', 'SKILL.md');
    original = fs.readFileSync(file, 'utf8');
    await vscode.workspace.getConfiguration('agentSkills').update('toolSurface', 'minimal', vscode.ConfigurationTarget.Workspace);
    await waitFor('the minimal tool surface to apply', () => api.service.settings.toolSurface === 'minimal');
  });

  after(async () => {
    // Later suites expect the sample workspace as shipped and the default surface.
    fs.writeFileSync(file, original);
    await vscode.workspace.getConfiguration('agentSkills').update('toolSurface', undefined, vscode.ConfigurationTarget.Workspace);
    await waitFor('the standard tool surface back', () => api.service.settings.toolSurface === 'standard');
    await waitFor('release-notes back to its description', async () => /commits since the last tag/.test((await availableSkill('release-notes')).description ?? ''));
  });

  it('@skills inspects, patches (after the user confirms) and runs a workspace skill; disk, tree and diagnostics show the new version', async () => {
    const uri = vscode.Uri.file(file);
    await vscode.window.showTextDocument(uri);
    const ours = () => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'agent-skills');
    assert.ok(!ours().some((d) => String(d.code) === 'field-unknown'), 'the fixture already has an unknown field');
    // The scripted model cannot read results, so the test reads what inspect will show: the file and its ref.
    const ref = digestOf(fs.readFileSync(file));
    await setScript([
      { toolCalls: [{ name: CATALOG_TOOL_NAMES.runSkill, input: { action: 'inspect', skill: 'workspace:release-notes' } }] },
      { toolCalls: [{ name: CATALOG_TOOL_NAMES.updateSkill, input: { action: 'patch', skill: 'workspace:release-notes', diff: patchFor(original), expectedVersionRef: ref, reason: 'test: pull requests' } }] },
      { toolCalls: [{ name: CATALOG_TOOL_NAMES.runSkill, input: { action: 'run', skill: 'workspace:release-notes' } }] },
      { text: 'Updated and ran release-notes.' },
    ]);
    await newChat('update the release notes skill');
    // updateSkill asks for confirmation in the chat (without workbench.action.chat.acceptTool this request
    // stalls at the second model call); accept it as the user would (Continue).
    let sawPending = false;
    const requests = await waitFor(
      'the model to get the patch and run results',
      async () => {
        const got = await waitForRequests(1);
        if (got.length >= 4) return got;
        // The model asked for updateSkill; until the user accepts, nothing is written.
        if (got.length === 2 && !sawPending) {
          sawPending = true;
          assert.equal(fs.readFileSync(file, 'utf8'), original, 'updateSkill wrote before the user confirmed');
        }
        await vscode.commands.executeCommand('workbench.action.chat.acceptTool');
        return undefined;
      },
      60_000,
    );

    // The minimal surface: only the two catalog tools, and instructions that name no other skill tool.
    assert.deepEqual(requests[0].tools.map((t) => t.name).sort(), [CATALOG_TOOL_NAMES.runSkill, CATALOG_TOOL_NAMES.updateSkill]);
    const instructions = JSON.stringify(requests[0].messages[0]);
    for (const name of Object.values(TOOL_NAMES)) assert.ok(!instructions.includes(name), `the minimal instructions mention ${name}`);
    assert.match(instructions, /runSkill with action \\?"run\\?"/);

    const inspected = JSON.parse(toolResults(requests[1]).at(-1) ?? '{}') as { versionRef?: string; contentWithLineNumbers?: string };
    assert.equal(inspected.versionRef, ref, 'inspect showed another version than the test patched');
    assert.match(inspected.contentWithLineNumbers ?? '', /^\s*3[\s│|:]+description: Drafts release notes/m);
    const patched = JSON.parse(toolResults(requests[2]).at(-1) ?? '{}') as { written?: boolean; diff?: string; versionRef?: string };
    assert.equal(patched.written, true, `updateSkill did not write: ${toolResults(requests[2]).at(-1)}`);
    assert.match(patched.diff ?? '', /merged pull requests/);

    const onDisk = fs.readFileSync(file, 'utf8');
    assert.match(onDisk, /^description: Drafts release notes from the merged pull requests/m);
    assert.match(onDisk, /^audience: maintainers$/m);
    assert.equal(patched.versionRef, digestOf(onDisk));
    assert.match(onDisk, /1\. Find the last tag/, 'the body was kept');

    await waitFor('the tree to show the new description', async () => /merged pull requests/.test((await availableSkill('release-notes')).description ?? ''), 10_000);
    const unknown = await waitFor('a field-unknown warning on the patched SKILL.md', () => ours().find((d) => String(d.code) === 'field-unknown'), 30_000);
    assert.equal(unknown.severity, vscode.DiagnosticSeverity.Warning);
    assert.equal(unknown.range.start.line, 3, 'the warning is on the added audience line');

    // runSkill run loaded the skill into this conversation's session, as load_skills would.
    assert.deepEqual(await activeSkillsOf('update the release notes skill'), ['release-notes']);
    const ran = JSON.parse(toolResults(requests[3]).at(-1) ?? '{}') as { status?: string; loaded?: boolean; instructions?: string };
    assert.equal(ran.status, 'ready');
    assert.equal(ran.loaded, true);
    assert.match(ran.instructions ?? '', /Find the last tag/);
  });
});
