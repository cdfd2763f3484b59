import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CodeActionRequest, DidChangeWatchedFilesNotification, FileChangeType, HoverRequest, type CodeAction, type Hover, type MarkupContent } from 'vscode-languageserver-protocol/node';
import { explainRule } from '../../src/core/skill';
import { removeDir } from './fixtureWorkspace';
import { applyEdits, changeDoc, fileUri, openDoc, repoRoot, startServer, type LspSession } from './lspTestClient';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';

const SKILL = '---\nname: quoted\ndescription: Quotes booleans. Use when testing.\nuser-invocable: "false"\ndisable-model-invocation: true\n---\n# Quoted\n\nZero\u200bwidth.\n';
const codes = (p: { diagnostics: { code?: string | number }[] }) => p.diagnostics.map((d) => String(d.code)).sort();

describe('language server: lint configuration, rule fixes and rule docs over stdio', function () {
  // Above the sum of a test's waits (each ends on its notification, or names it at its own deadline: 10 s for
  // diagnostics); with mocha's 20 s default, at load 30 mocha's timeout fired first and named nothing.
  this.timeout(60_000);
  let ws: string;
  let s: LspSession | undefined;
  let file: string;

  before(function () {
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });
  beforeEach(() => {
    ws = fs.mkdtempSync(path.join(os.tmpdir(), 'lsp-lint-'));
    file = path.join(ws, 'skills', 'quoted', 'SKILL.md');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, SKILL);
  });
  afterEach(async () => {
    await s?.stop();
    s = undefined;
    removeDir(ws);
  });

  it('follows .agent-skills.yaml live: written, changed and deleted', async () => {
    s = await startServer({ workspaceFolders: [ws], initializationOptions: { debounceMs: 0 } });
    const uri = fileUri(file);
    const first = await s.waitForDiagnostics(uri);
    assert.ok(codes(first).includes('boolean-quoted') && codes(first).includes('invisible-unicode'), JSON.stringify(codes(first)));
    const cfg = path.join(ws, '.agent-skills.yaml');
    fs.writeFileSync(cfg, 'rules:\n  boolean-quoted: off\n  invisible-unicode: error\n');
    const n = s.published.length;
    await s.conn.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: fileUri(cfg), type: FileChangeType.Created }] });
    const second = await s.waitForDiagnostics(uri, (p) => s!.published.indexOf(p) >= n && !codes(p).includes('boolean-quoted'));
    assert.equal(second.diagnostics.find((d) => d.code === 'invisible-unicode')?.severity, 1, 'raised to error');
    fs.writeFileSync(cfg, 'exclude:\n  - skills/quoted\n');
    const m = s.published.length;
    await s.conn.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: fileUri(cfg), type: FileChangeType.Changed }] });
    await s.waitForDiagnostics(uri, (p) => s!.published.indexOf(p) >= m && p.diagnostics.length === 0);
    fs.rmSync(cfg);
    const k = s.published.length;
    await s.conn.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: fileUri(cfg), type: FileChangeType.Deleted }] });
    const back = await s.waitForDiagnostics(uri, (p) => s!.published.indexOf(p) >= k && p.diagnostics.length > 0);
    assert.ok(codes(back).includes('boolean-quoted'));
  });

  it('honours agentSkills.validation.rules and reports a bad entry in the log', async () => {
    s = await startServer({ workspaceFolders: [ws], initializationOptions: { debounceMs: 0 }, configuration: { validation: { rules: { 'skill-unreachable': 'off', 'no-such': 'off' } } } });
    const d = await s.waitForDiagnostics(fileUri(file));
    assert.ok(!codes(d).includes('skill-unreachable'));
    assert.ok(codes(d).includes('boolean-quoted'));
    const logs = () => s!.logs().join('\n');
    const deadline = Date.now() + 10_000;
    while (!/agentSkills\.validation\.rules: `rules\.no-such` is not a rule/.test(logs()) && Date.now() < deadline) await new Promise((r) => setImmediate(r));
    assert.match(logs(), /agentSkills\.validation\.rules: `rules\.no-such` is not a rule/);
  });

  it('honours agentSkills.validation.host: fields of the chosen host are its own', async () => {
    s = await startServer({ workspaceFolders: [ws], initializationOptions: { debounceMs: 0 } });
    assert.ok(codes(await s.waitForDiagnostics(fileUri(file))).includes('field-nonstandard'), 'any host: a host field is not portable');
    await s.stop();
    s = await startServer({ workspaceFolders: [ws], initializationOptions: { debounceMs: 0 }, configuration: { validation: { host: 'claude-code' } } });
    const d = await s.waitForDiagnostics(fileUri(file));
    assert.ok(!codes(d).includes('field-nonstandard') && codes(d).includes('boolean-quoted'), JSON.stringify(codes(d)));
  });

  it("offers each rule's own fix as a quick fix, and the hover on a finding shows the rule's documentation", async () => {
    s = await startServer({ workspaceFolders: [ws], initializationOptions: { debounceMs: 0, scanWorkspace: false } });
    const uri = fileUri(file);
    await openDoc(s, uri, SKILL, 1);
    const published = await s.waitForDiagnostics(uri, (p) => p.version === 1);
    let text = SKILL;
    let version = 1;
    for (const rule of ['invisible-unicode', 'boolean-quoted']) {
      const diag = published.diagnostics.find((d) => d.code === rule)!;
      const actions = (await s.conn.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: diag.range, context: { diagnostics: [diag] } })) as CodeAction[];
      const fix = actions.find((a) => a.diagnostics?.[0]?.code === rule && a.edit);
      assert.ok(fix, `${rule}: ${JSON.stringify(actions.map((a) => a.title))}`);
      text = applyEdits(text, fix.edit!.changes![uri]);
    }
    await changeDoc(s, uri, text, ++version);
    const after = await s.waitForDiagnostics(uri, (p) => p.version === version);
    assert.ok(!codes(after).includes('invisible-unicode') && !codes(after).includes('boolean-quoted'), JSON.stringify(codes(after)));
    assert.ok(text.includes('user-invocable: false\n') && !text.includes('\u200b'));
    const h = (await s.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 4, character: 3 } })) as Hover;
    assert.ok((h.contents as MarkupContent).value.includes(explainRule('skill-unreachable')!));
  });
});
