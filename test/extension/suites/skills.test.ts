// The extension as a user meets it, in one real VS Code session: the Skills tree, loading and unloading
// from it into @skills conversations (asserted on what the scripted model received), separate
// conversations, a real script run through the participant, the Copilot-agent session, a SKILL.md
// created on disk, Create Skill, and the language server's diagnostics and quick fix.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMMANDS, TOOL_NAMES } from '../../../src/extension/ids';
import { activatedExtension } from '../helpers/extension';
import { scriptedChatModel, setScript, waitForRequests, type RecordedRequest } from '../helpers/scriptedModel';
import { activeSkillsOf, availableSkill, continueChat, describeTree, flatten, newChat, sessionNode } from '../helpers/skillsUi';
import { waitFor } from '../helpers/waitFor';

const COMMIT_BODY = /Write a subject line of at most 50 characters/;
const GREETING_BODY = /Run the bundled script with the person's name/;

/** Every text the model saw in a request, instructions first. */
function textOf(r: RecordedRequest): string {
  return r.messages.flatMap((m) => m.parts).map((p) => (p.kind === 'text' ? p.value : p.kind === 'toolResult' ? p.content.join('') : '')).join('\n');
}

function workspaceDir(): string {
  const f = vscode.workspace.workspaceFolders?.[0];
  assert.ok(f, 'no workspace folder is open');
  return f.uri.fsPath;
}

describe('Agent Skills in a real VS Code', function () {
  this.timeout(120_000);

  before(async () => {
    await activatedExtension();
    await scriptedChatModel();
  });

  it('shows the sample workspace\'s skills in the tree, the broken one with its first problem', async () => {
    const tree = await describeTree();
    const workspace = tree.available.find((n) => n.label === 'Workspace');
    assert.ok(workspace, `no Workspace group: ${tree.available.map((n) => n.label).join(', ')}`);
    const ok = workspace.children.filter((c) => c.contextValue === 'skill.ok').map((c) => c.label).sort();
    assert.deepEqual(ok, ['commit-message', 'greeting', 'release-notes']);
    const greeting = workspace.children.find((c) => c.label === 'greeting');
    assert.match(greeting?.description ?? '', /Greets someone by name/);
    const broken = workspace.children.find((c) => c.contextValue === 'skill.broken');
    assert.ok(broken, 'the broken skill is not shown as broken');
    assert.match(broken.description ?? '', /^broken: .+/);
  });

  it('loads a skill from the tree into a conversation: the next @skills request carries its body; unloading removes it', async () => {
    await setScript([{ text: 'Hello!' }, { text: 'Here is a commit message.' }, { text: 'Plain answer.' }]);
    await newChat('first conversation');
    await waitForRequests(1);
    const session = await sessionNode('first conversation');
    assert.deepEqual(session.children, []);

    await vscode.commands.executeCommand(COMMANDS.loadSkill, (await availableSkill('commit-message')).node, session.node);
    assert.deepEqual(await activeSkillsOf('first conversation'), ['commit-message']);

    await continueChat('write the commit message');
    const [, withSkill] = await waitForRequests(2);
    assert.match(textOf(withSkill), /write the commit message/);
    assert.match(JSON.stringify(withSkill.messages[0]), /<skill name=\\?"commit-message\\?"/, 'the instructions do not carry the loaded skill');
    assert.match(textOf(withSkill), COMMIT_BODY);

    const active = (await sessionNode('first conversation')).children[0];
    await vscode.commands.executeCommand(COMMANDS.unloadSkill, active.node);
    assert.deepEqual(await activeSkillsOf('first conversation'), []);
    await continueChat('and now without it');
    const [, , without] = await waitForRequests(3);
    assert.match(textOf(without), /and now without it/);
    assert.doesNotMatch(textOf(without), COMMIT_BODY);
  });

  it('keeps separate active skills in two conversations', async () => {
    await vscode.commands.executeCommand(COMMANDS.loadSkill, (await availableSkill('release-notes')).node, (await sessionNode('first conversation')).node);
    await setScript([{ text: 'Greeted.' }]);
    await newChat('/load greeting');
    await waitFor('greeting active in the second conversation', async () => (await activeSkillsOf('/load greeting')).includes('greeting'));
    await continueChat('greet Ada');
    const [r] = await waitForRequests(1);
    assert.match(textOf(r), GREETING_BODY);
    assert.doesNotMatch(textOf(r), /Drafts release notes from the commits since the last tag\.[\s\S]*Find the last tag/, 'the other conversation\'s skill leaked in');
    assert.deepEqual(await activeSkillsOf('first conversation'), ['release-notes']);
    assert.deepEqual(await activeSkillsOf('/load greeting'), ['greeting']);
  });

  it('runs a real skill script through @skills and returns its output to the model', async () => {
    await setScript([
      { toolCalls: [{ name: TOOL_NAMES.load, input: { names: ['greeting'] } }] },
      { toolCalls: [{ name: TOOL_NAMES.run_script, input: { skill: 'greeting', script: 'scripts/greet.sh', args: ['Grace'] } }] },
      { text: 'The script greeted Grace.' },
    ]);
    await newChat('please greet Grace');
    // run_skill_script asks for confirmation in the chat; accept it as the user would (Continue).
    const requests = await waitFor(
      'the model to get the script result',
      async () => {
        const got = await waitForRequests(1);
        if (got.length >= 3) return got;
        await vscode.commands.executeCommand('workbench.action.chat.acceptTool');
        return undefined;
      },
      60_000,
    );
    const second = requests[1];
    assert.match(JSON.stringify(second.messages[0]), /<skill name=\\?"greeting\\?"/, 'after load_skills the instructions carry the skill');
    const result = requests[2].messages.flatMap((m) => m.parts).find((p) => p.kind === 'toolResult' && /exit_code/.test(p.content.join('')));
    assert.ok(result && result.kind === 'toolResult', `no run result in: ${JSON.stringify(requests[2].messages)}`);
    const parsed = JSON.parse(result.content.join('')) as { exit_code: number; stdout: string };
    assert.equal(parsed.exit_code, 0);
    assert.equal(parsed.stdout.trim(), 'Hello, Grace! (from the greeting skill)');
    // The run's log-only fields (its phases and the argv it ran) stay with the host and the audit log.
    assert.ok(!('phases' in parsed) && !('argv' in parsed), `the model got log-only fields: ${Object.keys(parsed).join(', ')}`);
  });

  it('puts calls from outside @skills (Copilot\'s agent) into the window session, shown as such', async () => {
    const r = await vscode.lm.invokeTool(TOOL_NAMES.load, { input: { names: ['commit-message'] }, toolInvocationToken: undefined });
    assert.match(r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join(''), /commit-message/);
    assert.deepEqual(await activeSkillsOf('Copilot agent (this window)'), ['commit-message']);
    assert.equal((await sessionNode('Copilot agent (this window)')).contextValue, 'session.window');
    await vscode.lm.invokeTool(TOOL_NAMES.unload, { input: { all: true }, toolInvocationToken: undefined });
  });

  it('shows a SKILL.md created on disk in the tree without a refresh', async () => {
    const dir = path.join(workspaceDir(), '.github', 'skills', 'fresh-skill');
    fs.mkdirSync(dir, { recursive: true });
    const started = Date.now();
    fs.writeFileSync(path.join(dir, 'SKILL.md'), '---\nname: fresh-skill\ndescription: Created by the test on disk. Use when testing the watcher.\n---\n\n# Fresh\n');
    await waitFor('fresh-skill in the Available view', async () => flatten((await describeTree()).available).some((n) => n.label === 'fresh-skill'), 10_000);
    console.log(`      (fresh-skill appeared in the tree ${Date.now() - started} ms after the write)`);
    fs.rmSync(dir, { recursive: true, force: true });
    await waitFor('fresh-skill gone from the Available view', async () => !flatten((await describeTree()).available).some((n) => n.label === 'fresh-skill'), 10_000);
  });

  it('creates a skill with Create Skill: a valid skeleton, opened, listed', async () => {
    const uri = await vscode.commands.executeCommand<vscode.Uri | undefined>(COMMANDS.createSkill, { scope: 'workspace', name: 'made-by-command', description: 'Made by the Create Skill command: a test.' });
    assert.ok(uri, 'Create Skill returned no file');
    assert.equal(uri.fsPath, path.join(workspaceDir(), '.github', 'skills', 'made-by-command', 'SKILL.md'));
    assert.match(fs.readFileSync(uri.fsPath, 'utf8'), /^---\nname: made-by-command\ndescription: "Made by the Create Skill command: a test\."\n---/);
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, uri.fsPath);
    assert.equal((await availableSkill('made-by-command')).contextValue, 'skill.ok');
  });

  it('language server: the broken SKILL.md gets our diagnostics, a quick fix removes one', async () => {
    // VS Code's own skill validator (chat.useAgentSkills) reports the name and description problems; by default
    // the server leaves those to it. Turn deferring off so ours are all there.
    await vscode.workspace.getConfiguration('agentSkills').update('validation.deferToBuiltin', false, vscode.ConfigurationTarget.Workspace);
    const uri = vscode.Uri.file(path.join(workspaceDir(), '.github', 'skills', 'broken-skill', 'SKILL.md'));
    await vscode.window.showTextDocument(uri);
    const ours = () => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'agent-skills');
    const diags = await waitFor('agent-skills name diagnostics on broken-skill/SKILL.md', () => ours().some((d) => /^name-/.test(String(d.code))) && ours(), 30_000);
    // 'Broken_Skill' in broken-skill/: one finding for the name's form, whose mended name is the folder's (so no
    // second finding that the name differs from the folder).
    const nameFindings = diags.filter((d) => /^name-/.test(String(d.code)));
    assert.deepEqual(nameFindings.map((d) => String(d.code)), ['name-invalid-chars'], `name findings: ${diags.map((d) => `${String(d.code)} ${d.message}`).join(' | ')}`);
    const mismatch = nameFindings[0];
    assert.match(mismatch.message, /contains "_" and has uppercase letters.*Use 'broken-skill', the folder's name\./);
    const actions = (await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, mismatch.range, vscode.CodeActionKind.QuickFix.value)) ?? [];
    const fix = actions.find((a) => a.edit && /Set name to the folder name 'broken-skill'/.test(a.title));
    assert.ok(fix?.edit, `no quick fix setting the name; offered: ${actions.map((a) => a.title).join(' | ')}`);
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    await waitFor('the name problems to go after the quick fix', () => !ours().some((d) => /^name-/.test(String(d.code))), 20_000);
    assert.ok(ours().some((d) => String(d.code) === 'description-missing'), 'the quick fix must not hide the other problems');
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await vscode.workspace.getConfiguration('agentSkills').update('validation.deferToBuiltin', undefined, vscode.ConfigurationTarget.Workspace);
  });
});
