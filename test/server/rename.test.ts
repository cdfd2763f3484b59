import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PrepareRenameRequest, RenameRequest, type RenameFile, type TextDocumentEdit, type WorkspaceEdit } from 'vscode-languageserver-protocol/node';
import { removeDir } from './fixtureWorkspace';
import { applyEdits, fileUri, openDoc, repoRoot, startServer, type LspSession } from './lspTestClient';

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
  let ws: string;
  let s: LspSession | undefined;
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    fs.writeFileSync(path.join(ws, rel), text);
  };

  before(() => {
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: repoRoot, stdio: 'pipe' });
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
});
