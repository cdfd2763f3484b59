// Trying skills without a model (issue 16): "Run Script…" runs a skill's script as run_skill_script would and
// shows the result; "Preview Prompt" shows what @skills would send. The scripted model only checks the preview
// against what a real @skills request then sends.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMMANDS } from '../../../src/extension/ids';
import type { SkillsService } from '../../../src/extension/skillsService';
import { activatedExtension } from '../helpers/extension';
import { alive, processesWith } from '../helpers/processes';
import { answering, pressUntil } from '../helpers/prompts';
import { scriptedChatModel, setScript, waitForRequests, type RecordedRequest } from '../helpers/scriptedModel';
import { availableSkill, continueChat, describeTree, newChat, sessionNode } from '../helpers/skillsUi';
import { waitFor } from '../helpers/waitFor';

type RunOutcome = { ran: true; uri: string; invocation: { ok: boolean } } | { ran: false; reason: string };

interface AuditLine {
  session: string;
  action: string;
  skill?: string;
  arguments?: { script?: string; args?: string[] };
  outcome: string;
}

async function docText(uri: string): Promise<string> {
  return (await vscode.workspace.openTextDocument(vscode.Uri.parse(uri))).getText();
}

/** The instructions block of a preview (between the fences under its heading). */
function previewInstructions(text: string): string {
  const at = text.indexOf('## Instructions, exactly as sent');
  assert.ok(at >= 0, 'the preview has no instructions section');
  const lines = text.slice(at).split('\n');
  const open = lines.findIndex((l) => l.startsWith('```'));
  const fence = lines[open].replace(/text$/, '');
  const close = lines.findIndex((l, i) => i > open && l === fence);
  return lines.slice(open + 1, close).join('\n');
}

function firstMessage(r: RecordedRequest): string {
  return r.messages[0].parts.map((p) => (p.kind === 'text' ? p.value : '')).join('');
}

describe('trying skills without a model', function () {
  this.timeout(180_000);
  let service: SkillsService;
  let skillDir: string;
  const leftovers: number[] = [];

  const auditLines = (): AuditLine[] => {
    const file = path.join(service.stateDir, 'audit.jsonl');
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as AuditLine) : [];
  };

  before(async () => {
    service = ((await activatedExtension()).exports as { service: SkillsService }).service;
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'no workspace folder');
    skillDir = path.join(folder.uri.fsPath, '.github', 'skills', 'greeting');
    fs.writeFileSync(path.join(skillDir, 'scripts', 'report.sh'), '#!/usr/bin/env bash\necho "to stderr" >&2\nprintf "report for %s\\n" "$1" > "$OUTPUT_DIR/report.txt"\nexit 4\n');
    await service.ready();
  });
  after(() => {
    for (const pid of leftovers) if (alive(pid)) process.kill(pid, 'SIGKILL');
  });

  it('Run Script on the sample skill\'s script asks first, then shows its output and exit code; the Sessions view stays as it was', async () => {
    const sessionsBefore = (await describeTree()).sessions;
    const before = auditLines().length;
    // Dismissing the confirmation runs nothing: the confirmation is really asked, even with every argument given.
    const declined = await answering(vscode.commands.executeCommand<RunOutcome>(COMMANDS.runScript, { skill: 'greeting', script: 'scripts/greet.sh', args: ['Nobody'] }), 'dismiss');
    assert.deepEqual(declined, { ran: false, reason: 'not confirmed' });
    assert.equal(auditLines().length, before, 'a declined run was audited (so it ran)');

    const outcome = await answering(vscode.commands.executeCommand<RunOutcome>(COMMANDS.runScript, { skill: 'greeting', script: 'scripts/greet.sh', args: ['Ada Lovelace'] }), 'accept');
    assert.ok(outcome.ran, JSON.stringify(outcome));
    const report = await docText(outcome.uri);
    assert.match(report, /^- Exit code: 0$/m, report);
    assert.match(report, /Hello, Ada Lovelace! \(from the greeting skill\)/);
    assert.match(report, /^- Sandbox: (sandboxed with bubblewrap|not sandboxed: .+)/m);
    // Shown formatted: a Markdown preview of the report (playgroundUi.test.ts checks its tab).
    await waitFor('the report shown in a Markdown preview', () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).some((t) => t.input instanceof vscode.TabInputWebview && t.label.includes('greeting · scripts∕greet.sh · exit 0')));
    const line = auditLines().at(-1);
    assert.deepEqual([line?.session, line?.action, line?.skill, line?.outcome], ['user', 'run_script', 'greeting', 'ok']);
    assert.deepEqual((await describeTree()).sessions, sessionsBefore, 'the Sessions view changed');
  });

  it('remembers the last arguments of a script and offers them again', async () => {
    const outcome = await answering(vscode.commands.executeCommand<RunOutcome>(COMMANDS.runScript, { skill: 'greeting', script: 'scripts/greet.sh' }), 'accept');
    assert.ok(outcome.ran, JSON.stringify(outcome));
    assert.match(await docText(outcome.uri), /Hello, Ada Lovelace!/);
  });

  it('Run Script from a script file\'s URI (the editor action) shows stderr, a non-zero exit code and links to the output files', async () => {
    const file = vscode.Uri.file(path.join(skillDir, 'scripts', 'report.sh'));
    const outcome = await answering(vscode.commands.executeCommand<RunOutcome>(COMMANDS.runScript, file, { args: ['Q3'] }), 'accept');
    assert.ok(outcome.ran, JSON.stringify(outcome));
    const report = await docText(outcome.uri);
    assert.match(report, /^- Exit code: 4$/m, report);
    assert.match(report, /## stderr\n\n`+text\nto stderr\n/);
    const link = /^- \[out\/report\.txt\]\((file:\/\/[^)]+)\), text\/plain/m.exec(report);
    assert.ok(link, report);
    assert.equal(fs.readFileSync(vscode.Uri.parse(link[1]).fsPath, 'utf8'), 'report for Q3\n');
  });

  it('a sleeping script is cancelled: its processes are gone and the report and the audit line say cancelled', async () => {
    const marker = `playground-${process.pid}-${Date.now()}`;
    const sleeper = () => [...processesWith(marker).values()].some((c) => c.startsWith(`greeting-wait-${marker}`));
    let ended: RunOutcome | undefined;
    const command = vscode.commands.executeCommand<RunOutcome>(COMMANDS.runScript, { skill: 'greeting', script: 'scripts/wait.sh', args: [marker] });
    void command.then((o) => (ended = o));
    await pressUntil('accept', 'the script and its sleeping child to run', () => ended !== undefined || sleeper());
    const running = processesWith(marker);
    leftovers.push(...running.keys());
    assert.ok(running.size >= 2, `expected the script and its child: ${[...running.values()].join(' | ')}; the command ended with ${JSON.stringify(ended)}${ended?.ran ? `:\n${await docText(ended.uri)}` : ''}`);
    assert.equal(await vscode.commands.executeCommand(COMMANDS.stopScriptRuns), 1);
    await waitFor(`the script's processes to end (${[...running.keys()].join(', ')})`, () => [...running.keys()].every((pid) => !alive(pid)) && processesWith(marker).size === 0);
    const outcome = await command;
    assert.ok(outcome.ran, JSON.stringify(outcome));
    assert.match(await docText(outcome.uri), /^- Result: cancelled \(process tree killed\)/m);
    const line = auditLines().find((l) => l.arguments?.args?.includes(marker));
    assert.equal(line?.outcome, 'cancelled', JSON.stringify(line));
  });

  it('the preview of a request naming a skill ranks it first; a smaller catalog budget, refreshed, leaves others out', async () => {
    const uri = await vscode.commands.executeCommand<string>(COMMANDS.previewPrompt, { request: 'draft them with release-notes please', session: 'new' });
    const first = await docText(uri);
    assert.match(first, /^1\. release-notes: shown; its distinctive name is written in the request$/m, first);
    assert.doesNotMatch(first, /left out/);
    const config = vscode.workspace.getConfiguration('agentSkills');
    await config.update('catalog.maxChars', 500, vscode.ConfigurationTarget.Workspace);
    try {
      await waitFor('the new catalog budget to apply', () => service.settings.catalogMaxChars === 500);
      await vscode.commands.executeCommand(COMMANDS.refreshPromptPreview, uri);
      // The runtime is rebuilt for the new settings just after they are read; the open preview follows it.
      const cut = await waitFor('the refreshed preview to leave skills out', async () => {
        const t = await docText(uri);
        return t.includes('500 characters') && /^\d+\. \S+: left out/m.test(t) ? t : undefined;
      });
      assert.match(cut, /^1\. release-notes: shown; its distinctive name is written in the request$/m, cut);
      assert.match(cut, /^\d+\. (commit-message|greeting): left out: it did not fit the budget/m, cut);
      assert.match(previewInstructions(cut), /release-notes/);
    } finally {
      await config.update('catalog.maxChars', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  it('a refreshed preview shows an edited SKILL.md', async () => {
    const uri = await vscode.commands.executeCommand<string>(COMMANDS.previewPrompt, { request: 'write a commit message', session: 'new' });
    assert.doesNotMatch(await docText(uri), /EDITED-FOR-PREVIEW/);
    const file = path.join(path.dirname(skillDir), 'commit-message', 'SKILL.md');
    const original = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, original.replace(/^description: /m, 'description: EDITED-FOR-PREVIEW. '));
    try {
      await waitFor('the registry to read the edit', () => service.peekRegistry()?.usable().some((r) => r.description.startsWith('EDITED-FOR-PREVIEW')));
      await vscode.commands.executeCommand(COMMANDS.refreshPromptPreview, uri);
      await waitFor('the preview to show the edit', async () => /<description>EDITED-FOR-PREVIEW/.test(previewInstructions(await docText(uri))));
    } finally {
      fs.writeFileSync(file, original);
    }
  });

  it("after loading a skill from the tree into a session, that session's preview holds its body once, and is what @skills then sends", async () => {
    await scriptedChatModel();
    await setScript([{ text: 'Hi.' }, { text: 'Hello again.' }]);
    await newChat('preview this conversation');
    await waitForRequests(1);
    const session = await sessionNode('preview this conversation');
    await vscode.commands.executeCommand(COMMANDS.loadSkill, (await availableSkill('greeting')).node, session.node);
    const id = (session.node as { session: { id: string } }).session.id;
    const stateBefore = service.peek()?.runtime.sessions.get(id);

    const uri = await vscode.commands.executeCommand<string>(COMMANDS.previewPrompt, { request: 'greet Grace', session: id });
    const text = await docText(uri);
    const body = "Run the bundled script with the person's name and show its output unchanged:";
    assert.equal(text.split(body).length - 1, 1, `the body should appear once:\n${text}`);
    assert.match(text, /^1\. greeting \(workspace:greeting\)/m);
    assert.deepEqual(service.peek()?.runtime.sessions.get(id), stateBefore, 'the preview changed the real session');

    await continueChat('greet Grace');
    const [, sent] = await waitForRequests(2);
    assert.equal(previewInstructions(text), firstMessage(sent), 'the preview differs from what @skills sent');
    const previewTools = [...text.matchAll(/^### (\S+)$/gm)].map((m) => m[1]).filter((n) => n !== 'user').sort();
    assert.deepEqual(previewTools, sent.tools.map((t) => t.name).sort());
  });
});
