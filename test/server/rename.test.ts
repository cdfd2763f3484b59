import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CodeActionRequest, PrepareRenameRequest, RenameRequest, type CodeAction, type RenameFile, type TextDocumentEdit, type WorkspaceEdit } from 'vscode-languageserver-protocol/node';
import { removeDir } from './fixtureWorkspace';
import { applyEdits, fileUri, openDoc, repoRoot, startServer, type LspSession } from './lspTestClient';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { fileWriter } from '../support/tempDir';

/** Applies a WorkspaceEdit to the disk as a client would: text edits, then file renames, in order. */
function applyWorkspaceEdit(edit: WorkspaceEdit): void {
  for (const c of edit.documentChanges ?? []) {
    if ('kind' in c) {
      assert.equal(c.kind, 'rename');
      const r = c as RenameFile;
      fs.renameSync(new URL(r.oldUri), new URL(r.newUri));
    } else {
      const e = c as TextDocumentEdit;
      const file = new URL(e.textDocument.uri);
      fs.writeFileSync(file, applyEdits(fs.readFileSync(file, 'utf8'), e.edits as never));
    }
  }
}

describe('language server: F2 on name renames the skill, its folder and what points at it (over stdio)', function () {
  // Above the sum of a test's waits (each ends on its notification, or names it at its own deadline: 10 s for
  // diagnostics); with mocha's 20 s default, at load 30 mocha's timeout fired first and named nothing.
  this.timeout(60_000);
  let ws: string;
  let s: LspSession | undefined;
  const write = fileWriter(() => ws);

  before(function () {
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });
  beforeEach(() => {
    ws = fs.mkdtempSync(path.join(os.tmpdir(), 'lsp-rename-'));
    write('skills/old-skill/SKILL.md', '---\nname: old-skill\ndescription: Does old things. Use when asked.\n---\n# old-skill\n\nRun `scripts/run.py`. Invoke as /old-skill.\n');
    write('skills/old-skill/scripts/run.py', 'print(1)\n');
    write('skills/other/SKILL.md', '---\nname: other\ndescription: Other things. Use when asked.\n---\nFirst use [old](../old-skill/SKILL.md) (`old-skill`), then /old-skill.\n');
    write('docs/guide.md', 'See skills/old-skill/scripts/run.py. The old-skill word in prose stays.\n');
  });
  afterEach(async () => {
    await s?.stop();
    s = undefined;
    removeDir(ws);
  });

  it('prepareRename offers the name value; rename is one WorkspaceEdit that the client can preview and apply', async () => {
    s = await startServer({ workspaceFolders: [ws], initializationOptions: { debounceMs: 0, scanWorkspace: false }, resourceOperations: true });
    const file = path.join(ws, 'skills/old-skill/SKILL.md');
    const uri = fileUri(file);
    await openDoc(s, uri, fs.readFileSync(file, 'utf8'), 1);
    const prep = await s.conn.sendRequest(PrepareRenameRequest.type, { textDocument: { uri }, position: { line: 1, character: 8 } });
    assert.deepEqual(prep, { range: { start: { line: 1, character: 6 }, end: { line: 1, character: 15 } }, placeholder: 'old-skill' });
    assert.equal(await s.conn.sendRequest(PrepareRenameRequest.type, { textDocument: { uri }, position: { line: 6, character: 2 } }), null, 'the body is not a rename target');
    const edit = (await s.conn.sendRequest(RenameRequest.type, { textDocument: { uri }, position: { line: 1, character: 8 }, newName: 'new-skill' })) as WorkspaceEdit;
    const ops = edit.documentChanges ?? [];
    assert.equal(ops.filter((o) => 'kind' in o).length, 1, 'one folder rename');
    assert.ok('kind' in ops[ops.length - 1], 'the folder moves after every text edit');
    applyWorkspaceEdit(edit);
    assert.ok(!fs.existsSync(path.join(ws, 'skills/old-skill')));
    assert.equal(fs.readFileSync(path.join(ws, 'skills/new-skill/SKILL.md'), 'utf8'), '---\nname: new-skill\ndescription: Does old things. Use when asked.\n---\n# old-skill\n\nRun `scripts/run.py`. Invoke as /new-skill.\n');
    assert.ok(fs.existsSync(path.join(ws, 'skills/new-skill/scripts/run.py')));
    assert.equal(fs.readFileSync(path.join(ws, 'skills/other/SKILL.md'), 'utf8'), '---\nname: other\ndescription: Other things. Use when asked.\n---\nFirst use [old](../new-skill/SKILL.md) (`new-skill`), then /new-skill.\n');
    assert.equal(fs.readFileSync(path.join(ws, 'docs/guide.md'), 'utf8'), 'See skills/new-skill/scripts/run.py. The old-skill word in prose stays.\n');
  });

  it('refuses an invalid name and a folder that already exists, saying why', async () => {
    write('skills/taken/SKILL.md', '---\nname: taken\ndescription: Taken. Use when asked.\n---\n');
    s = await startServer({ workspaceFolders: [ws], initializationOptions: { debounceMs: 0, scanWorkspace: false }, resourceOperations: true });
    const uri = fileUri(path.join(ws, 'skills/old-skill/SKILL.md'));
    await openDoc(s, uri, fs.readFileSync(path.join(ws, 'skills/old-skill/SKILL.md'), 'utf8'), 1);
    await assert.rejects(s.conn.sendRequest(RenameRequest.type, { textDocument: { uri }, position: { line: 1, character: 8 }, newName: 'Bad_Name' }), /not a valid skill name/);
    await assert.rejects(s.conn.sendRequest(RenameRequest.type, { textDocument: { uri }, position: { line: 1, character: 8 }, newName: 'taken' }), /already exists/);
  });

  it("the folder-mismatch fix that keeps the name renames the folder and every link to it, as one WorkspaceEdit", async () => {
    s = await startServer({ workspaceFolders: [ws], initializationOptions: { debounceMs: 0, scanWorkspace: false }, resourceOperations: true });
    // The author changed the name; the folder still has the old one.
    const file = path.join(ws, 'skills/old-skill/SKILL.md');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('name: old-skill', 'name: fresh-skill'));
    const uri = fileUri(file);
    await openDoc(s, uri, fs.readFileSync(file, 'utf8'), 1);
    const diags = await s.waitForDiagnostics(uri, (p) => p.diagnostics.some((d) => d.code === 'name-folder-mismatch'));
    const mismatch = diags.diagnostics.find((d) => d.code === 'name-folder-mismatch')!;
    const actions = (await s.conn.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: mismatch.range, context: { diagnostics: [mismatch] } })) as CodeAction[];
    const rename = actions.find((a) => /Rename the folder to 'fresh-skill'/.test(a.title));
    assert.ok(rename?.edit, `offered: ${actions.map((a) => a.title).join(' | ')}`);
    assert.ok(actions.some((a) => /Set name to the folder name 'old-skill'/.test(a.title)), 'the other direction is still offered');
    applyWorkspaceEdit(rename.edit);
    assert.ok(fs.existsSync(path.join(ws, 'skills/fresh-skill/SKILL.md')) && !fs.existsSync(path.join(ws, 'skills/old-skill')));
    assert.match(fs.readFileSync(path.join(ws, 'skills/other/SKILL.md'), 'utf8'), /\[old\]\(\.\.\/fresh-skill\/SKILL\.md\)/);
    assert.match(fs.readFileSync(path.join(ws, 'docs/guide.md'), 'utf8'), /skills\/fresh-skill\/scripts\/run\.py/);
    execFileSync(process.execPath, [path.join(repoRoot, 'dist/cli.js'), 'validate', path.join(ws, 'skills/fresh-skill')]);
  });
});
