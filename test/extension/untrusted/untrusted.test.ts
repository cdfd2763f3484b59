// The extension in a workspace that is not trusted (VS Code Restricted Mode; the harness's "untrusted"
// session): workspace skills are not offered, no script runs, and the tools say why and what to do.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SkillsExtensionApi } from '../../../src/extension/extension';
import { CATALOG_TOOL_NAMES, COMMANDS, TOOL_NAMES } from '../../../src/extension/ids';
import { activatedExtension } from '../helpers/extension';
import { describeTree, flatten } from '../helpers/skillsUi';

function text(r: vscode.LanguageModelToolResult): string {
  return r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

describe('Agent Skills in an untrusted workspace', function () {
  this.timeout(60_000);
  const marker = path.join(os.tmpdir(), `skills-untrusted-${process.pid}-${Date.now()}`);
  let stateDir = '';
  /**
   * Every copy of the marker a run of mark.sh would leave. A sandboxed script writes "$1" only in its private
   * /tmp, which the host never sees (issue 22.9: checking "$1" alone passed with the protection removed), so
   * it also writes into its HOME and its run's out/, folders of the runner's state folder the sandbox shares
   * with the host.
   */
  const traces = (file: string): string[] => {
    const found = fs.existsSync(file) ? [file] : [];
    const name = path.basename(file);
    if (fs.existsSync(stateDir)) for (const f of fs.readdirSync(stateDir, { recursive: true }) as string[]) if (path.basename(f) === name) found.push(path.join(stateDir, f));
    return found;
  };

  before(async () => {
    // A user skill (home folder) whose script would leave a file behind if it ran.
    const dir = path.join(os.homedir(), '.agents', 'skills', 'leave-mark');
    fs.mkdirSync(path.join(dir, 'scripts'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'SKILL.md'), '---\nname: leave-mark\ndescription: Writes a marker file. Use when testing that scripts do not run in untrusted workspaces.\n---\n\nRun `scripts/mark.sh <file>`.\n');
    fs.writeFileSync(path.join(dir, 'scripts', 'mark.sh'), '#!/usr/bin/env bash\nname=$(basename "$1")\necho ran > "$1"; echo ran > "$HOME/$name"; echo ran > "$OUTPUT_DIR/$name"\n', { mode: 0o755 });
    stateDir = ((await activatedExtension()).exports as SkillsExtensionApi).service.stateDir;
    assert.ok(path.isAbsolute(stateDir), `the extension's state folder: ${stateDir}`);
    await vscode.commands.executeCommand(COMMANDS.refresh);
  });

  after(() => {
    for (const suffix of ['tool', 'command']) for (const f of traces(`${marker}-${suffix}`)) fs.rmSync(f, { force: true });
  });

  it('runs in Restricted Mode', () => {
    assert.equal(vscode.workspace.isTrusted, false, 'the harness should have opened the workspace untrusted');
  });

  it('does not offer workspace skills, in the tree or to the model', async () => {
    const nodes = flatten((await describeTree()).available);
    assert.ok(!nodes.some((n) => n.label === 'Workspace' || n.label === 'greeting'), `workspace skills shown: ${nodes.map((n) => n.label).join(', ')}`);
    assert.ok(nodes.some((n) => n.label === 'leave-mark'), 'the user skill is missing');
    const load = text(await vscode.lm.invokeTool(TOOL_NAMES.load, { input: { names: ['greeting'] }, toolInvocationToken: undefined }));
    assert.match(load, /^Error \(/, `a workspace skill was loaded: ${load}`);
    const list = text(await vscode.lm.invokeTool(TOOL_NAMES.list, { input: {}, toolInvocationToken: undefined }));
    assert.match(list, /not trusted/);
    assert.match(list, /Manage Workspace Trust/);
  });

  it('does not run a skill script, and says why and what to do', async () => {
    const loaded = text(await vscode.lm.invokeTool(TOOL_NAMES.load, { input: { names: ['leave-mark'] }, toolInvocationToken: undefined }));
    assert.doesNotMatch(loaded, /^Error/, loaded);
    const run = text(await vscode.lm.invokeTool(TOOL_NAMES.run_script, { input: { skill: 'leave-mark', script: 'scripts/mark.sh', args: [`${marker}-tool`] }, toolInvocationToken: undefined }));
    assert.deepEqual(traces(`${marker}-tool`), [], `the script ran: ${run}`);
    assert.match(run, /^Error \(run_refused\): .*not trusted/, run);
    assert.match(run, /Manage Workspace Trust/);
  });

  it('Run Script (the user\'s own run) refuses before asking anything, and says why and what to do', async () => {
    const outcome = await vscode.commands.executeCommand<{ ran: boolean; reason?: string }>(COMMANDS.runScript, { skill: 'leave-mark', script: 'scripts/mark.sh', args: [`${marker}-command`] });
    assert.deepEqual(traces(`${marker}-command`), [], `the script ran: ${JSON.stringify(outcome)}`);
    assert.equal(outcome.ran, false, JSON.stringify(outcome));
    assert.match(outcome.reason ?? '', /not trusted/);
    assert.match(outcome.reason ?? '', /Manage Workspace Trust/);
  });

  it('updateSkill refuses to write workspace skills, saying why; nothing changes on disk', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    const file = path.join(folder.uri.fsPath, '.github', 'skills', 'greeting', 'SKILL.md');
    const before = fs.readFileSync(file, 'utf8');
    const patch = text(await vscode.lm.invokeTool(CATALOG_TOOL_NAMES.updateSkill, { input: { action: 'replace', skill: 'workspace:greeting', content: '---\nname: greeting\ndescription: Changed. Use when never.\n---\n' }, toolInvocationToken: undefined }));
    assert.match(patch, /^Error \(untrusted_workspace\): .*not trusted/, patch);
    assert.match(patch, /Manage Workspace Trust/);
    const create = text(await vscode.lm.invokeTool(CATALOG_TOOL_NAMES.updateSkill, { input: { action: 'create', scope: 'workspace', name: 'sneaky', description: 'Should not be written. Use never.', body: '# Sneaky\n' }, toolInvocationToken: undefined }));
    assert.match(create, /^Error \(untrusted_workspace\)/, create);
    assert.equal(fs.readFileSync(file, 'utf8'), before);
    assert.equal(fs.existsSync(path.join(folder.uri.fsPath, '.github', 'skills', 'sneaky')), false);
  });
});
