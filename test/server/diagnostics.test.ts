import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DidChangeWatchedFilesNotification, DidCloseTextDocumentNotification, DocumentLinkRequest, FileChangeType } from 'vscode-languageserver-protocol/node';
import { copyFixture, removeDir } from './fixtureWorkspace';
import { changeDoc, fileUri, openDoc, repoRoot, startServer, type LspSession } from './lspTestClient';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';

const codes = (p: { diagnostics: { code?: string | number }[] }) => p.diagnostics.map((d) => d.code).sort();

describe('language server: diagnostics over stdio', function () {
  // Above the sum of a test's waits (each ends on its notification, or names it at its own deadline: 10 s for
  // diagnostics); with mocha's 20 s default, at load 30 mocha's timeout fired first and named nothing.
  this.timeout(60_000);
  let ws: string;
  let s: LspSession;
  const skill = (name: string) => path.join(ws, 'skills', name, 'SKILL.md');

  before(function () {
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });
  beforeEach(async () => {
    ws = copyFixture('lsp-workspace');
    s = await startServer({ workspaceFolders: [ws], initializationOptions: { debounceMs: 0 } });
  });
  afterEach(async () => {
    await s.stop();
    removeDir(ws);
  });

  it('announces its capabilities', () => {
    const c = s.init.capabilities;
    assert.ok(c.completionProvider && c.hoverProvider && c.definitionProvider && c.documentLinkProvider);
    assert.ok(c.codeActionProvider && c.documentSymbolProvider && c.foldingRangeProvider);
  });

  it('publishes diagnostics for every SKILL.md of the workspace at start, open or not', async () => {
    const scanned = await s.waitForNotification<{ skillFiles: string[] }>('skills/workspaceScanned');
    assert.equal(scanned.skillFiles.length, 6);
    const colon = await s.waitForDiagnostics(fileUri(skill('colon-value')));
    assert.deepEqual(colon.diagnostics.map((d) => [d.code, d.source, d.range]), [
      ['yaml-syntax', 'agent-skills', { start: { line: 2, character: 13 }, end: { line: 2, character: 14 } }],
    ]);
    const demo = await s.waitForDiagnostics(fileUri(skill('demo-skill')));
    assert.deepEqual(demo.diagnostics, []);
  });

  it('validates on open and on every change, tagging each result with the document version', async () => {
    const uri = fileUri(skill('demo-skill'));
    const text = fs.readFileSync(skill('demo-skill'), 'utf8');
    await openDoc(s, uri, text, 1);
    const first = await s.waitForDiagnostics(uri, (p) => p.version === 1);
    assert.deepEqual(first.diagnostics, []);
    await changeDoc(s, uri, text.replace('license: Apache-2.0', 'license: a: b'), 2);
    const second = await s.waitForDiagnostics(uri, (p) => p.version === 2);
    assert.deepEqual(codes(second), ['yaml-syntax']);
    assert.deepEqual(second.diagnostics[0].range.start.line, 3);
    await changeDoc(s, uri, text, 3);
    const third = await s.waitForDiagnostics(uri, (p) => p.version === 3);
    assert.deepEqual(third.diagnostics, []);
  });

  it('re-validates a skill when a file inside its folder is deleted or created', async () => {
    const uri = fileUri(skill('demo-skill'));
    await s.waitForNotification('skills/workspaceScanned');
    const guide = path.join(ws, 'skills/demo-skill/references/guide.md');
    fs.rmSync(guide);
    const before = s.published.length;
    await s.conn.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: fileUri(guide), type: FileChangeType.Deleted }] });
    const missing = await s.waitForDiagnostics(uri, (p) => s.published.indexOf(p) >= before);
    assert.deepEqual(
      missing.diagnostics.map((d) => [d.code, d.range]),
      [['reference-missing', { start: { line: 8, character: 17 }, end: { line: 8, character: 36 } }]],
    );
    fs.writeFileSync(guide, '# Guide again\n');
    const mark = s.published.length;
    await s.conn.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: fileUri(guide), type: FileChangeType.Created }] });
    const fixed = await s.waitForDiagnostics(uri, (p) => s.published.indexOf(p) >= mark);
    assert.deepEqual(fixed.diagnostics, []);
  });

  it('an open skill keeps its folder listing between keystrokes until a file changes: a new folder makes its bare paths links', async () => {
    await s.waitForNotification('skills/workspaceScanned');
    const file = skill('demo-skill');
    const uri = fileUri(file);
    const text = `${fs.readFileSync(file, 'utf8')}3. Copy templates/page.md into the project.\n`;
    const linked = async () => ((await s.conn.sendRequest(DocumentLinkRequest.type, { textDocument: { uri } })) ?? []).map((l) => l.target?.slice(l.target.lastIndexOf('/skills/'))).sort();
    const before = ['/skills/demo-skill/assets/template.txt', '/skills/demo-skill/references/guide.md', '/skills/demo-skill/scripts/run.py'];
    await openDoc(s, uri, text, 1);
    await s.waitForDiagnostics(uri, (p) => p.version === 1);
    assert.deepEqual(await linked(), before, 'no templates/ folder: its bare path is prose');
    const templates = path.join(path.dirname(file), 'templates');
    fs.mkdirSync(templates);
    fs.writeFileSync(path.join(templates, 'page.md'), '# Page\n');
    const mark = s.published.length;
    await s.conn.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: fileUri(templates), type: FileChangeType.Created }] });
    await s.waitForDiagnostics(uri, (p) => s.published.indexOf(p) >= mark);
    const after = [...before, '/skills/demo-skill/templates/page.md'].sort();
    assert.deepEqual(await linked(), after, 'the folder is listed again once the watcher reports it');
    await changeDoc(s, uri, `${text}x`, 2);
    await s.waitForDiagnostics(uri, (p) => p.version === 2);
    assert.deepEqual(await linked(), after, 'and kept at the next keystroke');
    fs.rmSync(templates, { recursive: true });
    const gone = s.published.length;
    await s.conn.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: fileUri(templates), type: FileChangeType.Deleted }] });
    await s.waitForDiagnostics(uri, (p) => s.published.indexOf(p) >= gone);
    await changeDoc(s, uri, text, 3);
    await s.waitForDiagnostics(uri, (p) => p.version === 3);
    assert.deepEqual(await linked(), before);
  });

  it('an open skill keeps the walk of its files between keystrokes until a file changes: a script added is seen', async () => {
    await s.waitForNotification('skills/workspaceScanned');
    const file = skill('demo-skill');
    const uri = fileUri(file);
    const text = `${fs.readFileSync(file, 'utf8')}\nThen check the result:\n\n\`\`\`bash\npython check.py\n\`\`\`\n`;
    await openDoc(s, uri, text, 1);
    assert.deepEqual(codes(await s.waitForDiagnostics(uri, (p) => p.version === 1)), [], 'no check.py in the skill: nothing to say');
    const script = path.join(path.dirname(file), 'scripts', 'check.py');
    fs.writeFileSync(script, 'print("ok")\n');
    const mark = s.published.length;
    await s.conn.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: fileUri(script), type: FileChangeType.Created }] });
    assert.deepEqual(codes(await s.waitForDiagnostics(uri, (p) => s.published.indexOf(p) >= mark)), ['script-path-incomplete'], 'the skill is walked again once the watcher reports the file');
    await changeDoc(s, uri, `${text}x`, 2);
    assert.deepEqual(codes(await s.waitForDiagnostics(uri, (p) => p.version === 2)), ['script-path-incomplete'], 'and the walk is kept at the next keystroke');
    fs.rmSync(script);
    const gone = s.published.length;
    await s.conn.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: fileUri(script), type: FileChangeType.Deleted }] });
    assert.deepEqual(codes(await s.waitForDiagnostics(uri, (p) => s.published.indexOf(p) >= gone)), []);
  });

  it('clears the problems of a SKILL.md deleted on disk and lists a new one', async () => {
    await s.waitForNotification('skills/workspaceScanned');
    const colon = skill('colon-value');
    fs.rmSync(colon);
    const mark = s.published.length;
    await s.conn.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: fileUri(colon), type: FileChangeType.Deleted }] });
    const cleared = await s.waitForDiagnostics(fileUri(colon), (p) => s.published.indexOf(p) >= mark);
    assert.deepEqual(cleared.diagnostics, []);
    const fresh = path.join(ws, 'skills/new-skill/SKILL.md');
    fs.mkdirSync(path.dirname(fresh));
    fs.writeFileSync(fresh, '---\nname: new-skill\n---\n');
    await s.conn.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: fileUri(fresh), type: FileChangeType.Created }] });
    const created = await s.waitForDiagnostics(fileUri(fresh));
    assert.deepEqual(codes(created), ['description-missing']);
    // A watcher may report a folder created with its files as the folder alone.
    const inFolder = path.join(ws, 'skills/folder-only/SKILL.md');
    fs.mkdirSync(path.dirname(inFolder));
    fs.writeFileSync(inFolder, '---\nname: folder-only\n---\n');
    await s.conn.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: fileUri(path.dirname(inFolder)), type: FileChangeType.Created }] });
    assert.deepEqual(codes(await s.waitForDiagnostics(fileUri(inFolder))), ['description-missing']);
  });

  it('reports each rule at the severity of the mode the settings pick', async () => {
    const lenient = await s.waitForDiagnostics(fileUri(skill('extra-fields')));
    assert.deepEqual(lenient.diagnostics.map((d) => [d.code, d.severity, d.range]), [
      ['field-unknown', 2, { start: { line: 3, character: 0 }, end: { line: 3, character: 14 } }],
    ]);
    await s.stop();
    s = await startServer({ workspaceFolders: [ws], initializationOptions: { debounceMs: 0 }, configuration: { validation: { mode: 'strict' } } });
    const strict = await s.waitForDiagnostics(fileUri(skill('extra-fields')));
    assert.deepEqual(strict.diagnostics.map((d) => [d.code, d.severity]), [['field-unknown', 1]]);
  });

  it('leaves the built-in validator its four problems only in open files, when it is active and deferring is on', async () => {
    const all = await s.waitForDiagnostics(fileUri(skill('name-mismatch')));
    assert.deepEqual(codes(all), ['name-folder-mismatch', 'name-invalid-chars']);
    await s.stop();
    s = await startServer({ workspaceFolders: [ws], initializationOptions: { debounceMs: 0, builtinSkillValidatorActive: true } });
    // VS Code's validator only checks SKILL.md files open in an editor: closed files keep all their problems.
    assert.deepEqual(codes(await s.waitForDiagnostics(fileUri(skill('no-description')))), ['description-missing']);
    const uri = fileUri(skill('name-mismatch'));
    assert.deepEqual(codes(await s.waitForDiagnostics(uri)), ['name-folder-mismatch', 'name-invalid-chars']);
    await openDoc(s, uri, fs.readFileSync(skill('name-mismatch'), 'utf8'), 1);
    assert.deepEqual((await s.waitForDiagnostics(uri, (p) => p.version === 1)).diagnostics, []);
    assert.deepEqual(codes(await s.waitForDiagnostics(fileUri(skill('colon-value')))), ['yaml-syntax']);
    const mark = s.published.length;
    await s.conn.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
    const closed = await s.waitForDiagnostics(uri, (p) => s.published.indexOf(p) >= mark);
    assert.deepEqual(codes(closed), ['name-folder-mismatch', 'name-invalid-chars']);
    await s.stop();
    s = await startServer({
      workspaceFolders: [ws],
      initializationOptions: { debounceMs: 0, builtinSkillValidatorActive: true },
      configuration: { validation: { deferToBuiltin: false } },
    });
    assert.deepEqual(codes(await s.waitForDiagnostics(fileUri(skill('no-description')))), ['description-missing']);
  });

  it('waits for a pause in typing before validating when debounced', async () => {
    await s.stop();
    s = await startServer({ workspaceFolders: [ws], initializationOptions: { debounceMs: 150, scanWorkspace: false } });
    const uri = fileUri(skill('demo-skill'));
    const text = fs.readFileSync(skill('demo-skill'), 'utf8');
    await openDoc(s, uri, text, 1);
    await s.waitForDiagnostics(uri, (p) => p.version === 1);
    for (let v = 2; v <= 6; v++) await changeDoc(s, uri, text.replace('license: Apache-2.0', `license: a: ${v}`), v);
    const last = await s.waitForDiagnostics(uri, (p) => p.version === 6);
    assert.deepEqual(codes(last), ['yaml-syntax']);
    assert.deepEqual(s.published.filter((p) => p.uri === uri).map((p) => p.version), [1, 6], 'intermediate versions are never validated');
  });

  it('exits with code 0 after shutdown and exit', async () => {
    const code = await s.stop();
    assert.equal(code, 0);
  });
});
