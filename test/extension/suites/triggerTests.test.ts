// Trigger tests with a model in the real VS Code (issue 27 points 2-5), against the scripted test model registered as
// a real provider: the quota confirmation (declined: nothing sent), pass, fail with another skill chosen and the diff
// against the previous run, find_skills then load_skills, a model error, Cancel, drafting a trigger file, and
// applying a suggested description followed by the validation rerun.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TriggerReport } from '../../../src/core/evals';
import type { TestTriggersResult as TestResult } from '../../../src/extension/evals/testTriggers';
import { COMMANDS } from '../../../src/extension/ids';
import { SCRIPTED_MODEL_ID } from '../../scriptedModel/protocol';
import { activatedExtension } from '../helpers/extension';
import { pressUntil } from '../helpers/prompts';
import { recordedRequests, scriptedChatModel, setScript, waitForRequests, type ScriptedTurn } from '../helpers/scriptedModel';
import { waitFor } from '../helpers/waitFor';

/** A skill of this suite's own (another suite leaves an unsaved copy of greeting's trigger file open). */
const SKILL = 'trigger-demo';
const TRIALS = 3; // the default of agentSkills.evals.trialsPerRequest
const load = (name: string): ScriptedTurn => ({ toolCalls: [{ name: 'load_skills', input: { names: [name] } }] });
const say = (text: string): ScriptedTurn => ({ text });
const times = (n: number, t: ScriptedTurn): ScriptedTurn[] => Array.from({ length: n }, () => t);

describe('trigger tests with a model (Test Triggers, Draft Trigger Requests, Suggest a Better Description)', function () {
  this.timeout(180_000);
  let skills: string;
  let triggerFile: string;

  /**
   * Runs Test Triggers and answers its quota confirmation as a user would: Enter on Send (its first item) until the
   * first request reaches the model, or Escape until the command ends.
   */
  async function testTriggers(button: 'Send' | 'Cancel', options: Record<string, unknown> = {}): Promise<TestResult | undefined> {
    let ended = false;
    const run = Promise.resolve(vscode.commands.executeCommand<TestResult | undefined>(COMMANDS.testTriggers, vscode.Uri.file(triggerFile), { model: SCRIPTED_MODEL_ID, ...options })).finally(() => (ended = true));
    let sent = 0;
    await pressUntil(button === 'Send' ? 'accept' : 'dismiss', `the confirmation to be answered with ${button}`, () => {
      void recordedRequests().then((r) => (sent = r.length));
      return ended || sent > 0;
    });
    const r = await run;
    assert.equal(r?.error, undefined, r?.error);
    return r;
  }

  before(async () => {
    await activatedExtension();
    await scriptedChatModel();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'no workspace folder');
    skills = path.join(folder.uri.fsPath, '.github', 'skills');
    triggerFile = path.join(skills, SKILL, 'evals', 'trigger-queries.json');
    fs.mkdirSync(path.dirname(triggerFile), { recursive: true });
    fs.writeFileSync(path.join(skills, SKILL, 'SKILL.md'), `---\nname: ${SKILL}\ndescription: Says hello to a person by name. Use when the user wants someone greeted.\n---\n\n# Trigger demo\n\nGreet the person warmly.\n`);
    const api = (await activatedExtension()).exports as { service: { registryReady(): Promise<{ usable(): { name: string }[] }> } };
    await waitFor(`the new skill ${SKILL} in the registry`, async () => (await api.service.registryReady()).usable().some((r) => r.name === SKILL), 60_000);
    fs.writeFileSync(
      triggerFile,
      JSON.stringify([
        { query: 'say hello to Ada for me', should_trigger: true },
        { query: 'write a commit message for my staged changes', should_trigger: false, split: 'validation' },
      ]),
    );
  });

  after(() => {
    fs.rmSync(path.join(skills, SKILL), { recursive: true, force: true });
    fs.rmSync(path.join(skills, 'commit-message', 'evals'), { recursive: true, force: true });
  });

  it('code lenses: the trigger file offers Test / Draft / Suggest; a SKILL.md offers Test when it has a trigger set, else Draft', async () => {
    const lenses = async (file: string) => {
      // The provider command answers for a document VS Code has open.
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
      return ((await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri)) ?? []).map((l) => l.command?.command);
    };
    assert.deepEqual(await lenses(triggerFile), [COMMANDS.testTriggers, COMMANDS.draftTriggerRequests, COMMANDS.suggestDescription]);
    assert.deepEqual(await lenses(path.join(skills, SKILL, 'SKILL.md')), [COMMANDS.testTriggers]);
    assert.deepEqual(await lenses(path.join(skills, 'commit-message', 'SKILL.md')), [COMMANDS.draftTriggerRequests]);
  });

  it('declining the quota confirmation sends nothing', async () => {
    await setScript([]);
    const r = await testTriggers('Cancel');
    assert.deepEqual(r, { declined: true });
    assert.equal((await recordedRequests()).length, 0, 'a request reached the model after the user declined');
  });

  it('pass: the model loads the skill for the should request and not for the near miss; the report opens', async () => {
    await setScript([...times(TRIALS, load(SKILL)), ...times(TRIALS, say('Here is a commit message.'))]);
    const r = await testTriggers('Send');
    const report = r?.report;
    assert.ok(report, `no report: ${JSON.stringify(r)}`);
    const open = vscode.workspace.textDocuments.filter((d) => d.uri.fsPath === triggerFile).map((d) => ({ dirty: d.isDirty, text: d.getText().slice(0, 120) }));
    assert.equal(report.validation.total, 1, `the judge did not read the file on disk; documents open for it: ${JSON.stringify(open)}`);
    assert.deepEqual(report.results.map((x) => [x.passed, x.triggerRate, x.trials.length]), [[true, 1, TRIALS], [true, 0, TRIALS]]);
    assert.deepEqual([report.train, report.validation], [{ passed: 1, total: 1 }, { passed: 1, total: 1 }]);
    const requests = await recordedRequests();
    assert.equal(requests.length, 2 * TRIALS);
    // What @skills sends for a fresh session: the composed instructions first, the request last, our tools offered.
    const first = requests[0];
    const text = (m: (typeof first.messages)[number]) => m.parts.map((p) => (p.kind === 'text' ? p.value : '')).join('');
    assert.match(text(first.messages[0]), new RegExp(`<available_skills>[\\s\\S]*${SKILL}`));
    assert.equal(text(first.messages[first.messages.length - 1]), 'say hello to Ada for me');
    for (const t of ['load_skills', 'find_skills']) assert.ok(first.tools.some((x) => x.name === t), `${t} not offered`);
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(r.uri!));
    assert.match(doc.getText(), /Trigger test: trigger\\?-demo/);
    assert.match(doc.getText(), /2 of 2 requests passed/);
  });

  it('fail: another skill loaded is recorded as chosen, and the report shows what changed since the last run', async () => {
    await setScript([...times(TRIALS, load('commit-message')), ...times(TRIALS, load(SKILL))]);
    const r = await testTriggers('Send');
    const report = r?.report;
    assert.ok(report);
    assert.deepEqual(report.results.map((x) => x.passed), [false, false]);
    assert.deepEqual(report.results[0].trials.map((t) => t.chosen), times(TRIALS, 'commit-message' as never));
    assert.ok(r.previous, 'the previous run was not kept');
    const text = (await vscode.workspace.openTextDocument(vscode.Uri.parse(r.uri!))).getText();
    assert.match(text, /commit\\?-message \(3\/3\)/);
    assert.match(text, /pass → fail/);
  });

  it('find_skills is answered with its real result and the turn continues to load_skills', async () => {
    const find: ScriptedTurn = { toolCalls: [{ name: 'find_skills', input: { query: 'greet a person by name' } }] };
    await setScript([find, load(SKILL), ...times(TRIALS - 1, load(SKILL)), ...times(TRIALS, say('no skill needed'))]);
    const r = await testTriggers('Send');
    assert.equal(r?.report?.results[0].triggerRate, 1);
    const second = (await recordedRequests())[1];
    const results = second.messages.flatMap((m) => m.parts).filter((p) => p.kind === 'toolResult');
    assert.equal(results.length, 1, 'the second call carries no find_skills result');
    assert.match(JSON.stringify(results[0]), /trigger-demo/);
  });

  it('a model error is recorded on its attempt and shown; the run goes on', async () => {
    await setScript([{ error: { code: 'Error', message: 'rate limited: try later' } }, ...times(TRIALS - 1, load(SKILL)), ...times(TRIALS, say('no'))]);
    const r = await testTriggers('Send');
    const report = r?.report;
    assert.ok(report);
    assert.match(report.results[0].trials[0].error ?? '', /rate limited/);
    assert.equal(report.results.length, 2, 'the run stopped at a passing error');
    assert.equal(report.results[0].passed, true, '2 of 3 attempts loaded the skill');
    assert.match((await vscode.workspace.openTextDocument(vscode.Uri.parse(r.uri!))).getText(), /rate limited/);
  });

  it('a model that refuses access (LanguageModelError Blocked) stops the run with a clear message', async () => {
    await setScript([{ error: { code: 'Blocked', message: 'quota exhausted' } }, ...times(10, load(SKILL))]);
    const r = await testTriggers('Send');
    assert.match(r?.stoppedBy ?? '', /quota exhausted/);
    assert.equal((await recordedRequests()).length, 1, 'requests were sent after the model refused');
    assert.match((await vscode.workspace.openTextDocument(vscode.Uri.parse(r!.uri!))).getText(), /Stopped after a model error/);
  });

  it('Cancel stops the run while the model is answering; the report says cancelled', async () => {
    await setScript([{ untilCancelled: true }, ...times(10, load(SKILL))]);
    const run = testTriggers('Send');
    await waitForRequests(1, 60_000);
    assert.equal(await vscode.commands.executeCommand(COMMANDS.stopTriggerTests), 1);
    const r = await run;
    assert.equal(r?.report?.cancelled, true);
    assert.equal(r?.report?.results.length, 0);
    assert.equal((await recordedRequests()).length, 1, 'a request was sent after Cancel');
  });

  it('Draft Trigger Requests writes a valid trigger file from the model answer (about 40% validation) and opens it', async () => {
    const drafted = [
      ...['write the commit message for what I staged', 'commit my work with a good message', 'describe my staged diff as a commit', 'summarise these changes for git', 'what should the commit subject be?'].map((query) => ({ query, should_trigger: true })),
      ...['push my branch to origin', 'review this pull request', 'greet Ada', 'explain git rebase', 'use the commit-message skill please'].map((query) => ({ query, should_trigger: false })),
    ];
    await setScript([say(`Here you go:\n\`\`\`json\n${JSON.stringify(drafted)}\n\`\`\``)]);
    const r = await vscode.commands.executeCommand<{ file: string; added: number; total: number }>(COMMANDS.draftTriggerRequests, vscode.Uri.file(path.join(skills, 'commit-message', 'SKILL.md')), { model: SCRIPTED_MODEL_ID });
    assert.ok(r, 'the draft failed');
    const written = JSON.parse(fs.readFileSync(r.file, 'utf8')) as { query: string; should_trigger: boolean; split: string }[];
    assert.equal(written.length, 9, 'the request naming the skill was kept');
    for (const q of written) assert.deepEqual(Object.keys(q).sort(), ['query', 'should_trigger', 'split']);
    assert.equal(written.filter((q) => q.split === 'validation').length, 4, 'not 2 of the 5 should and 2 of the 4 should-not requests held out');
    await waitFor('the drafted file in an editor', () => vscode.window.activeTextEditor?.document.uri.fsPath === r.file);
    const prompt = (await recordedRequests())[0].messages.flatMap((m) => m.parts).map((p) => (p.kind === 'text' ? p.value : '')).join('');
    assert.match(prompt, /nearest other skills[\s\S]*greeting/, 'the neighbouring skills are not in the prompt');
  });

  it('Draft Trigger Requests on an existing file asks Append or Replace; Append keeps the file and adds only new requests', async () => {
    const file = path.join(skills, 'commit-message', 'evals', 'trigger-queries.json');
    const before = JSON.parse(fs.readFileSync(file, 'utf8')) as { query: string }[];
    await setScript([say(JSON.stringify([{ query: 'commit my work with a good message', should_trigger: true }, { query: 'squash my last three commits', should_trigger: false }, { query: 'amend the commit text I just wrote', should_trigger: true }]))]);
    let done = false;
    const run = Promise.resolve(vscode.commands.executeCommand<{ added: number; total: number }>(COMMANDS.draftTriggerRequests, vscode.Uri.file(file), { model: SCRIPTED_MODEL_ID })).finally(() => (done = true));
    // Enter on the first item: "Append new requests".
    await pressUntil('accept', 'the draft to finish after Append', () => done);
    const r = await run;
    assert.deepEqual([r?.added, r?.total], [2, before.length + 2]);
    const after = JSON.parse(fs.readFileSync(file, 'utf8')) as { query: string }[];
    assert.deepEqual(after.slice(0, before.length), before, 'Append changed the requests already there');
    assert.deepEqual(after.slice(before.length).map((q) => q.query), ['squash my last three commits', 'amend the commit text I just wrote']);
  });

  it('Suggest a Better Description shows the proposal, applies it through updateSkill, then reruns the validation split', async () => {
    // A complete run where both requests fail: the last report the suggestion starts from.
    await setScript([...times(TRIALS, say('no skill')), ...times(TRIALS, load(SKILL))]);
    const failing = await testTriggers('Send');
    assert.deepEqual(failing?.report?.results.map((x) => x.passed), [false, false]);
    const proposed = 'Greets a person by name. Use when the user asks to greet or say hello to someone.';
    await setScript([say(JSON.stringify({ description: proposed })), ...times(TRIALS, say('Here is a commit message.'))]);
    const skillFile = path.join(skills, SKILL, 'SKILL.md');
    const before = fs.readFileSync(skillFile, 'utf8');
    try {
      const run = vscode.commands.executeCommand<{ proposed: string; applied: boolean; rerun?: TestResult }>(COMMANDS.suggestDescription, vscode.Uri.file(triggerFile), { model: SCRIPTED_MODEL_ID });
      await waitForRequests(1, 60_000);
      await waitFor('the diff editor of SKILL.md', () => vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputTextDiff && t.input.original.fsPath === skillFile)), 30_000);
      // Enter on "Apply" (the first item), then on "Send" of the validation rerun's confirmation.
      let done = false;
      void Promise.resolve(run).finally(() => (done = true));
      await pressUntil('accept', 'the proposal to be applied and the rerun confirmed', () => done);
      const r = await run;
      assert.ok(r?.applied);
      assert.match(fs.readFileSync(skillFile, 'utf8'), /description: Greets a person by name\. Use when/);
      // Written through updateSkill: the catalog keeps the change as a revision of SKILL.md.
      const api = (await activatedExtension()).exports as { catalog: { ready(): Promise<{ resolve(ref: string): { id: string }; history(e: { id: string }, file?: string): Promise<{ reason?: string }[]> }> } };
      const catalog = await api.catalog.ready();
      const history = await catalog.history(catalog.resolve(SKILL), 'SKILL.md');
      assert.ok(history.some((h) => /suggested description/.test(h.reason ?? '')), `no revision with the suggestion's reason: ${JSON.stringify(history)}`);
      const rerun = r.rerun?.report;
      assert.ok(rerun, 'no validation rerun');
      assert.deepEqual(rerun.results.map((x) => [x.split, x.passed]), [['validation', true]]);
      const rerunFirst = (await recordedRequests())[1];
      assert.match(JSON.stringify(rerunFirst.messages[0]), /Greets a person by name\. Use when/, 'the rerun did not compose with the new description');
      assert.match((await vscode.workspace.openTextDocument(vscode.Uri.parse(r.rerun!.uri!))).getText(), /fail → pass/);
    } finally {
      fs.writeFileSync(skillFile, before);
    }
  });
});
