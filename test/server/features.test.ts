import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  CodeActionRequest,
  CompletionRequest,
  DidOpenTextDocumentNotification,
  DefinitionRequest,
  DocumentLinkRequest,
  DocumentSymbolRequest,
  FoldingRangeRequest,
  HoverRequest,
  type CompletionItem,
  type CompletionList,
  type DocumentSymbol,
  type MarkupContent,
  type TextEdit,
} from 'vscode-languageserver-protocol/node';
import { copyFixture, removeDir } from './fixtureWorkspace';
import { fileUri, openDoc, repoRoot, startServer, type LspSession } from './lspTestClient';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';

const items = (r: CompletionItem[] | CompletionList | null): CompletionItem[] => (r === null ? [] : Array.isArray(r) ? r : r.items);
const hoverText = (h: { contents: unknown } | null) => (h ? (h.contents as MarkupContent).value : '');

describe('language server: completion, hover, links, symbols over stdio', function () {
  let ws: string;
  let s: LspSession;
  const file = (name: string) => path.join(ws, 'skills', name, 'SKILL.md');
  const uri = (name: string) => fileUri(file(name));
  const open = async (name: string, text = fs.readFileSync(file(name), 'utf8')) => {
    await openDoc(s, uri(name), text, 1);
    await s.waitForDiagnostics(uri(name), (p) => p.version === 1);
  };
  const at = (line: number, character: number) => ({ line, character });

  before(function () {
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });
  before(async () => {
    ws = copyFixture('lsp-workspace');
    s = await startServer({ workspaceFolders: [ws], initializationOptions: { debounceMs: 0, scanWorkspace: false } });
    await open('demo-skill');
  });
  after(async () => {
    await s.stop();
    removeDir(ws);
  });

  it('completes frontmatter keys not yet present, with documentation and limits', async () => {
    const text = fs.readFileSync(file('demo-skill'), 'utf8').replace('license: Apache-2.0\n', 'license: Apache-2.0\ncomp\n');
    const u = uri('demo-skill');
    await s.conn.sendNotification('textDocument/didChange', { textDocument: { uri: u, version: 2 }, contentChanges: [{ text }] });
    const r = items(await s.conn.sendRequest(CompletionRequest.type, { textDocument: { uri: u }, position: at(4, 4) }));
    const labels = r.map((i) => i.label);
    assert.ok(!labels.includes('name') && !labels.includes('description') && !labels.includes('license'), labels.join());
    const compat = r.find((i) => i.label === 'compatibility');
    assert.ok(compat, labels.join());
    assert.deepEqual(compat.textEdit, { range: { start: at(4, 0), end: at(4, 4) }, newText: 'compatibility: ' });
    assert.match((compat.documentation as MarkupContent).value, /At most 500 characters/);
    assert.ok(labels.includes('allowed-tools') && labels.includes('user-invocable'));
  });

  it('completes known values: folder name, booleans, licences, tool names', async () => {
    const u = uri('demo-skill');
    const text = '---\nname: \ndescription: d\nuser-invocable: \nlicense: MI\nallowed-tools: Read Gr\n---\n';
    await s.conn.sendNotification('textDocument/didChange', { textDocument: { uri: u, version: 3 }, contentChanges: [{ text }] });
    const name = items(await s.conn.sendRequest(CompletionRequest.type, { textDocument: { uri: u }, position: at(1, 6) }));
    assert.deepEqual(name.map((i) => i.label), ['demo-skill']);
    const bool = items(await s.conn.sendRequest(CompletionRequest.type, { textDocument: { uri: u }, position: at(3, 16) }));
    assert.deepEqual(bool.map((i) => i.label), ['true', 'false']);
    const lic = items(await s.conn.sendRequest(CompletionRequest.type, { textDocument: { uri: u }, position: at(4, 11) }));
    const mit = lic.find((i) => i.label === 'MIT');
    assert.deepEqual(mit?.textEdit, { range: { start: at(4, 9), end: at(4, 11) }, newText: 'MIT' });
    const tools = items(await s.conn.sendRequest(CompletionRequest.type, { textDocument: { uri: u }, position: at(5, 22) }));
    const grep = tools.find((i) => i.label === 'Grep');
    assert.deepEqual(grep?.textEdit, { range: { start: at(5, 20), end: at(5, 22) }, newText: 'Grep' });
    assert.ok(!tools.some((i) => i.label === 'Read'), 'Read is already listed');
  });

  it("completes the skill's own files in links and in inline code paths", async () => {
    const u = uri('demo-skill');
    const text = '---\nname: demo-skill\ndescription: d\n---\nSee [x](ref\nRun `scripts/r\n';
    await s.conn.sendNotification('textDocument/didChange', { textDocument: { uri: u, version: 4 }, contentChanges: [{ text }] });
    const link = items(await s.conn.sendRequest(CompletionRequest.type, { textDocument: { uri: u }, position: at(4, 11) }));
    assert.deepEqual(link.map((i) => i.label), ['assets/template.txt', 'references/guide.md', 'scripts/run.py']);
    assert.deepEqual(link[1].textEdit, { range: { start: at(4, 8), end: at(4, 11) }, newText: 'references/guide.md' });
    const code = items(await s.conn.sendRequest(CompletionRequest.type, { textDocument: { uri: u }, position: at(5, 14) }));
    assert.deepEqual(code.map((i) => [i.label, (i.textEdit as TextEdit).range]), [['scripts/run.py', { start: at(5, 5), end: at(5, 14) }]]);
    const original = fs.readFileSync(file('demo-skill'), 'utf8');
    await s.conn.sendNotification('textDocument/didChange', { textDocument: { uri: u, version: 5 }, contentChanges: [{ text: original }] });
  });

  it('hovers a field with its meaning and a live count against the limit', async () => {
    const h = await s.conn.sendRequest(HoverRequest.type, { textDocument: { uri: uri('demo-skill') }, position: at(2, 3) });
    const desc = 'Demonstrates the language server. Use when testing links, hovers and completions.';
    assert.match(hoverText(h), new RegExp(`description: ${desc.length} / 1,024 characters`));
    assert.match(hoverText(h), /when to use it/);
    assert.deepEqual(h?.range, { start: at(2, 0), end: at(2, 11) });
  });

  it("hovers a link with the target's size and estimated tokens, and the delimiter with the body's tokens", async () => {
    const h = await s.conn.sendRequest(HoverRequest.type, { textDocument: { uri: uri('demo-skill') }, position: at(8, 20) });
    const size = fs.statSync(path.join(ws, 'skills/demo-skill/references/guide.md')).size;
    assert.equal(hoverText(h), `\`references/guide.md\`: ${size} bytes, about ${Math.ceil(size / 4)} tokens when loaded.`);
    const d = await s.conn.sendRequest(HoverRequest.type, { textDocument: { uri: uri('demo-skill') }, position: at(0, 1) });
    assert.match(hoverText(d), /about \d+ \/ 5,000 tokens/);
  });

  it('resolves definitions and document links of relative references', async () => {
    const def = await s.conn.sendRequest(DefinitionRequest.type, { textDocument: { uri: uri('demo-skill') }, position: at(8, 25) });
    const target = fileUri(path.join(ws, 'skills/demo-skill/references/guide.md'));
    assert.deepEqual(def, { uri: target, range: { start: at(0, 0), end: at(0, 0) } });
    const links = await s.conn.sendRequest(DocumentLinkRequest.type, { textDocument: { uri: uri('demo-skill') } });
    assert.deepEqual(
      links?.map((l) => [l.range, l.target]),
      [
        [{ start: at(8, 17), end: at(8, 36) }, target],
        [{ start: at(12, 8), end: at(12, 22) }, fileUri(path.join(ws, 'skills/demo-skill/scripts/run.py'))],
        [{ start: at(13, 12), end: at(13, 31) }, fileUri(path.join(ws, 'skills/demo-skill/assets/template.txt'))],
      ],
    );
  });

  it('lists frontmatter fields and headings as symbols and folds the frontmatter', async () => {
    const syms = (await s.conn.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: uri('demo-skill') } })) as DocumentSymbol[];
    assert.deepEqual(syms.map((x) => x.name), ['frontmatter', 'Demo skill']);
    assert.deepEqual(syms[0].children?.map((x) => [x.name, x.selectionRange]), [
      ['name', { start: at(1, 0), end: at(1, 4) }],
      ['description', { start: at(2, 0), end: at(2, 11) }],
      ['license', { start: at(3, 0), end: at(3, 7) }],
    ]);
    assert.deepEqual(syms[1].children?.map((x) => [x.name, x.range.start.line]), [['Steps', 10]]);
    const folds = await s.conn.sendRequest(FoldingRangeRequest.type, { textDocument: { uri: uri('demo-skill') } });
    assert.deepEqual(folds?.[0], { startLine: 0, endLine: 4, kind: 'region' });
  });

  it('answers requests on a document it cannot make sense of without failing', async () => {
    const u = uri('demo-skill');
    await s.conn.sendNotification('textDocument/didChange', { textDocument: { uri: u, version: 6 }, contentChanges: [{ text: '\u0000\u0001---\n:\n' }] });
    const r = await s.conn.sendRequest(CodeActionRequest.type, { textDocument: { uri: u }, range: { start: at(0, 0), end: at(5, 0) }, context: { diagnostics: [] } });
    assert.ok(Array.isArray(r));
    const h = await s.conn.sendRequest(HoverRequest.type, { textDocument: { uri: u }, position: at(40, 3) });
    assert.equal(h, null);
    const huge = `---\nname: demo-skill\ndescription: d\n---\n${'y'.repeat(3_000_000)}\n`;
    await s.conn.sendNotification('textDocument/didChange', { textDocument: { uri: u, version: 7 }, contentChanges: [{ text: huge }] });
    const p = await s.waitForDiagnostics(u, (x) => x.version === 7);
    assert.ok(p.diagnostics.some((d) => d.code === 'server-file-truncated'), JSON.stringify(p.diagnostics.map((d) => d.code)));
  });
});

describe('language server hover beside VS Code\'s own field hover (builtinFieldHover)', function () {
  let ws: string;
  let s: LspSession;
  const at = (line: number, character: number) => ({ line, character });
  const hoverAt = async (u: string, line: number, character: number) => hoverText(await s.conn.sendRequest(HoverRequest.type, { textDocument: { uri: u }, position: at(line, character) }));

  before(async () => {
    ws = copyFixture('lsp-workspace');
    s = await startServer({ workspaceFolders: [ws], initializationOptions: { debounceMs: 0, scanWorkspace: false, builtinFieldHover: true } });
  });
  after(async () => {
    await s.stop();
    removeDir(ws);
  });

  it('gives only the live count on fields VS Code explains, and the whole hover on the others or outside the skill language', async () => {
    const text = '---\nname: beside-builtin\ndescription: Shows the hover next to the built-in one. Use in tests.\nallowed-tools: Read Grep\nargument-hint: a file\n---\n\n# Body\n';
    const skillDoc = fileUri(path.join(ws, 'skills', 'beside-builtin', 'SKILL.md'));
    await openDoc(s, skillDoc, text, 1);
    await s.waitForDiagnostics(skillDoc, (p) => p.version === 1);
    const desc = 'Shows the hover next to the built-in one. Use in tests.';
    // VS Code's hover says what `description` means: ours adds only the count.
    assert.equal(await hoverAt(skillDoc, 2, 3), `\`description: ${desc.length} / 1,024 characters\``);
    // The field's findings (non-standard, no `$ARGUMENTS` in the body) follow with their rules' documentation.
    const hint = await hoverAt(skillDoc, 4, 3);
    assert.ok(hint.startsWith('`argument-hint: 6 characters` · host-specific, not in the open standard\n\n---\n\n**field-nonstandard**'), hint);
    // VS Code's hover does not cover allowed-tools: the meaning stays.
    assert.match(await hoverAt(skillDoc, 3, 3), /\*\*allowed-tools\*\*/);

    // A SKILL.md open as Markdown gets no hover from VS Code's skill support: the whole hover.
    const mdDoc = fileUri(path.join(ws, 'skills', 'as-markdown', 'SKILL.md'));
    await s.conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: mdDoc, languageId: 'markdown', version: 1, text } });
    const md = await hoverAt(mdDoc, 2, 3);
    assert.match(md, /\*\*description\*\* \(required\)/);
    assert.match(md, new RegExp(`description: ${desc.length} / 1,024 characters`));
  });
});
