import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CodeActionRequest, type CodeAction, type Diagnostic, type Range } from 'vscode-languageserver-protocol/node';
import { copyFixture, removeDir } from './fixtureWorkspace';
import { applyEdits, changeDoc, fileUri, openDoc, repoRoot, startServer, type LspSession } from './lspTestClient';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';

describe('language server: quick fixes applied and re-validated over stdio', function () {
  let ws: string;
  let s: LspSession;
  let version = 1;

  before(function () {
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });
  beforeEach(async () => {
    ws = copyFixture('lsp-workspace');
    s = await startServer({ workspaceFolders: [ws], initializationOptions: { debounceMs: 0, scanWorkspace: false } });
  });
  afterEach(async () => {
    await s.stop();
    removeDir(ws);
  });

  /** Opens a fixture skill, asks for fixes on the problem with `rule`, applies the one titled like `title`, re-validates. */
  async function fix(skill: string, rule: string, title: RegExp, contextDiagnostics?: (ds: Diagnostic[]) => Diagnostic[]) {
    const file = path.join(ws, 'skills', skill, 'SKILL.md');
    const uri = fileUri(file);
    const text = fs.readFileSync(file, 'utf8');
    version = 1;
    await openDoc(s, uri, text, version);
    const before = await s.waitForDiagnostics(uri, (p) => p.version === version);
    const diag = before.diagnostics.find((d) => d.code === rule);
    assert.ok(diag, `expected ${rule} in ${JSON.stringify(before.diagnostics.map((d) => d.code))}`);
    const ctx = contextDiagnostics ? contextDiagnostics(before.diagnostics) : [diag];
    const actions = (await s.conn.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: diag.range, context: { diagnostics: ctx } })) as CodeAction[];
    const action = actions.find((a) => title.test(a.title));
    assert.ok(action, `no action like ${title} in ${JSON.stringify(actions.map((a) => a.title))}`);
    assert.equal(action.kind, 'quickfix');
    const edits = action.edit?.changes?.[uri] ?? [];
    const fixed = applyEdits(text, edits);
    await changeDoc(s, uri, fixed, ++version);
    const after = await s.waitForDiagnostics(uri, (p) => p.version === version);
    return { edits, fixed, before: before.diagnostics, after: after.diagnostics, diag };
  }
  const r = (sl: number, sc: number, el: number, ec: number): Range => ({ start: { line: sl, character: sc }, end: { line: el, character: ec } });

  it('sets name to the folder name', async () => {
    const { edits, after } = await fix('name-mismatch', 'name-folder-mismatch', /folder name/);
    assert.deepEqual(edits, [{ range: r(1, 6, 1, 16), newText: 'name-mismatch' }]);
    assert.deepEqual(after, []);
  });

  it('gives a name with two problems (uppercase and `_`) one finding and the one mended name', async () => {
    const { edits, before, after } = await fix('name-mismatch', 'name-invalid-chars', /Change name to 'other-name'/);
    assert.deepEqual(before.map((d) => d.code).sort(), ['name-folder-mismatch', 'name-invalid-chars'], 'no second finding for the uppercase letters');
    assert.match(before.find((d) => d.code === 'name-invalid-chars')!.message as string, /'Other_Name' contains "_" and has uppercase letters.*Use 'other-name'/);
    assert.deepEqual(edits, [{ range: r(1, 6, 1, 16), newText: 'other-name' }]);
    assert.deepEqual(after.map((d) => d.code), ['name-folder-mismatch'], 'the mended name has no problem of form left');
  });

  it('mends a name whose only problem is uppercase (the lowercase name is the folder name: one action)', async () => {
    fs.mkdirSync(path.join(ws, 'skills', 'upperonly'));
    fs.writeFileSync(path.join(ws, 'skills', 'upperonly', 'SKILL.md'), '---\nname: UpperOnly\ndescription: A skill named in camel case. Use when testing names.\n---\n\n# Upper\n');
    const { edits, before, after } = await fix('upperonly', 'name-uppercase', /'upperonly'/);
    assert.deepEqual(before.map((d) => d.code), ['name-uppercase']);
    assert.deepEqual(edits, [{ range: r(1, 6, 1, 15), newText: 'upperonly' }]);
    assert.deepEqual(after, []);
  });

  it('offers each name edit once, even when two rules suggest it', async () => {
    const file = path.join(ws, 'skills/name-mismatch/SKILL.md');
    const uri = fileUri(file);
    await openDoc(s, uri, fs.readFileSync(file, 'utf8'), 1);
    const published = await s.waitForDiagnostics(uri, (p) => p.version === 1);
    const actions = (await s.conn.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: r(1, 6, 1, 16),
      context: { diagnostics: published.diagnostics },
    })) as CodeAction[];
    assert.deepEqual(
      actions.map((a) => [a.title, a.edit?.changes?.[uri]?.[0]?.newText]),
      [
        ["Set name to the folder name 'name-mismatch'", 'name-mismatch'],
        // Lowercasing alone ('other_name') would leave the underscore: not offered.
        ["Change name to 'other-name'", 'other-name'],
      ],
    );
  });

  it('quotes a value whose unquoted colon breaks the YAML', async () => {
    const { edits, after, fixed } = await fix('colon-value', 'yaml-syntax', /Quote/);
    assert.deepEqual(edits, [{ range: r(2, 13, 2, 47), newText: '"Use this: when a value has a colon"' }]);
    assert.match(fixed, /^description: "Use this: when a value has a colon"$/m);
    assert.deepEqual(after, []);
  });

  it('moves an unknown field under metadata', async () => {
    const { edits, fixed, after } = await fix('extra-fields', 'field-unknown', /metadata/);
    assert.deepEqual(edits, [
      { range: r(3, 0, 4, 0), newText: '' },
      { range: r(4, 0, 4, 0), newText: 'metadata:\n  favorite-color: blue\n' },
    ]);
    assert.equal(fixed.split('---')[1], '\nname: extra-fields\ndescription: A skill with a field no host defines. Use when testing fields.\nmetadata:\n  favorite-color: blue\n');
    assert.deepEqual(after, []);
  });

  it('shortens a description to its limit at a sentence boundary', async () => {
    const { edits, after, diag } = await fix('long-description', 'description-too-long', /Shorten/);
    assert.deepEqual(edits[0].range, diag.range);
    const sentence = 'Summarizes long documents into short briefs when asked.';
    const n = Math.floor((1024 + 1) / (sentence.length + 1));
    assert.equal(edits[0].newText, Array(n).fill(sentence).join(' '));
    assert.ok(edits[0].newText.length <= 1024);
    assert.deepEqual(after, []);
  });

  it('adds a missing required field', async () => {
    const { edits, after } = await fix('no-description', 'description-missing', /Add the required field 'description'/);
    assert.deepEqual(edits, [{ range: r(2, 0, 2, 0), newText: 'description: Describe what this skill does and when to use it.\n' }]);
    // The inserted text is a placeholder to fill in, and says so.
    assert.deepEqual(after.map((d) => d.code), ['placeholder-text']);
  });

  it('still offers fixes for problems left to VS Code (deferred, not in the request context)', async () => {
    await s.stop();
    s = await startServer({
      workspaceFolders: [ws],
      initializationOptions: { debounceMs: 0, scanWorkspace: false, builtinSkillValidatorActive: true },
    });
    const file = path.join(ws, 'skills/name-mismatch/SKILL.md');
    const uri = fileUri(file);
    const text = fs.readFileSync(file, 'utf8');
    await openDoc(s, uri, text, 1);
    const published = await s.waitForDiagnostics(uri, (p) => p.version === 1);
    assert.deepEqual(published.diagnostics, [], 'all three name problems are left to the built-in validator');
    const builtin: Diagnostic = { range: r(1, 6, 1, 16), message: "The skill name 'Other_Name' does not match the folder", severity: 2 };
    const actions = (await s.conn.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: builtin.range, context: { diagnostics: [builtin] } })) as CodeAction[];
    const set = actions.find((a) => /folder name/.test(a.title));
    assert.deepEqual(set?.edit?.changes?.[uri], [{ range: r(1, 6, 1, 16), newText: 'name-mismatch' }]);
  });
});
