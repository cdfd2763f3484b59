// A skill's eval set (evals/evals.json, issue 27 point 1) in the real language server over stdio: the core's checks
// on the editor's text (input files resolved in the skill's folder on disk, rechecked when a file appears),
// completion of the file's and a case's fields, of the skill's name and of a new case; hover on fields.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { CompletionRequest, DidChangeWatchedFilesNotification, FileChangeType, HoverRequest, type CompletionItem, type Diagnostic, type MarkupContent } from 'vscode-languageserver-protocol/node';
import { skillJsonServer } from '../support/skillJsonServer';
import { changeDoc, fileUri, openDoc } from './lspTestClient';

const GOOD = `{
  "skill_name": "csv-report",
  "evals": [
    { "id": 1, "prompt": "Chart monthly totals from sales.csv", "expected_output": "A bar chart", "files": ["evals/files/sales.csv"], "assertions": ["Axes are labelled"] }
  ]
}
`;

function items(r: CompletionItem[] | { items: CompletionItem[] } | null): CompletionItem[] {
  return Array.isArray(r) ? r : (r?.items ?? []);
}

describe("language server: a skill's eval set (evals/evals.json)", function () {
  this.timeout(30_000);
  const srv = skillJsonServer({
    tmpPrefix: 'lsp-evals-',
    // The folder's name differs from the skill's name: the name checked is the SKILL.md's.
    files: {
      '.github/skills/report/SKILL.md': '---\nname: csv-report\ndescription: Charts and summarises CSV files. Use when the user shares a CSV.\n---\n# CSV report\n',
      '.github/skills/report/evals/files/sales.csv': 'month,total\nJan,3\n',
    },
    document: '.github/skills/report/evals/evals.json',
  });
  const { write, diagnosticsOf } = srv;
  const codes = (d: Diagnostic[]) => d.map((x) => `${x.code}/${x.severity}@${x.range.start.line}`);

  it('a well-formed set has no findings, and none of the SKILL.md checks', async () => {
    assert.deepEqual(await diagnosticsOf(GOOD, 1), []);
  });

  it('names each problem where it is: skill_name, a duplicate id, an empty prompt, an unknown field, a wrong type, invalid JSON; fixed live', async () => {
    const text = `{
  "skill_name": "csv",
  "evals": [
    { "id": 1, "prompt": "a" },
    { "id": 1, "prompt": "" },
    { "id": 2, "prompt": "b", "expected": "x", "assertions": "one" }
  ]
}`;
    const d = await diagnosticsOf(text, 1);
    assert.deepEqual(codes(d).sort(), ['evals-duplicate/1@4', 'evals-field/1@4', 'evals-field/1@5', 'evals-field/2@5', 'evals-skill-name/2@1'].sort());
    assert.match(String(d.find((x) => x.code === 'evals-skill-name')?.message), /"skill_name" is "csv" but this is the skill "csv-report"/);
    assert.match(String(d.find((x) => x.code === 'evals-duplicate')?.message), /id 1 is also the id on line 4/);
    const bad = await diagnosticsOf('{ "evals": [ { "id": 1, "prompt": "p" }, ] }', 2);
    assert.ok(bad.some((x) => x.code === 'evals-json' && /not valid JSON here/.test(String(x.message))), JSON.stringify(bad));
    assert.deepEqual(await diagnosticsOf(GOOD, 3), []);
  });

  it('a file nested past the depth bound is not parsed (checks, completion, hover) and says so; the server lives on', async () => {
    const deep = `{ "evals": [${'['.repeat(100_000)}${']'.repeat(100_000)}] }`;
    const d = await diagnosticsOf(deep, 1);
    assert.deepEqual(codes(d), ['evals-shape/1@0']);
    assert.match(String(d[0].message), /more than 16 deep: it is not checked/);
    assert.deepEqual(items(await srv.s.conn.sendRequest(CompletionRequest.type, { textDocument: { uri: srv.uri }, position: { line: 0, character: 50_000 } })), []);
    assert.equal(await srv.s.conn.sendRequest(HoverRequest.type, { textDocument: { uri: srv.uri }, position: { line: 0, character: 4 } }), null);
    assert.deepEqual(await diagnosticsOf(GOOD, 2), []);
  });

  it("input files are looked up in the skill's folder: a missing one, one outside; a file that appears clears its finding", async () => {
    const text = GOOD.replace('["evals/files/sales.csv"]', '["evals/files/sales.csv", "evals/files/q2.csv", "../../../outside.txt"]');
    const d = await diagnosticsOf(text, 1);
    assert.deepEqual(
      d.map((x) => String(x.message)),
      [
        `Eval 1: input file "evals/files/q2.csv" does not exist in the skill's folder; add the file or fix the path (relative to the folder, not to evals/).`,
        `Eval 1: input file "../../../outside.txt" leaves the skill's folder; put the file inside it (e.g. under evals/files/) and give that path.`,
      ],
    );
    const line = text.split('\n')[3];
    assert.equal(line.slice(d[0].range.start.character, d[0].range.end.character), '"evals/files/q2.csv"');
    write('.github/skills/report/evals/files/q2.csv', 'month,total\n');
    await srv.s.conn.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: fileUri(path.join(srv.ws, '.github/skills/report/evals/files/q2.csv')), type: FileChangeType.Created }] });
    const after = await srv.s.waitForDiagnostics(srv.uri, (p) => p.diagnostics.length === 1);
    assert.match(String(after.diagnostics[0].message), /outside\.txt" leaves the skill's folder/);
  });

  it("completes the file's fields, a case's missing fields (with their meaning), the skill's name, and a new case with the next id", async () => {
    const text = `{\n  \n  "evals": [\n    { "id": 4, "prompt": "x",  },\n    \n  ],\n  "skill_name": \n}`;
    await openDoc(srv.s, srv.uri, text, 1);
    const at = (line: number, character: number) => srv.s.conn.sendRequest(CompletionRequest.type, { textDocument: { uri: srv.uri }, position: { line, character } });
    assert.deepEqual(items(await at(1, 2)).map((i) => i.label), [], 'both top-level fields are there already');
    const caseFields = items(await at(3, 30));
    assert.deepEqual(caseFields.map((i) => i.label), ['expected_output', 'files', 'assertions']);
    const files = caseFields.find((i) => i.label === 'files');
    assert.equal(files?.detail, 'array of strings, optional');
    assert.equal(files?.insertText, '"files": ["$1"]');
    assert.match((files?.documentation as MarkupContent).value, /relative to the skill's folder/);
    assert.deepEqual(items(await at(6, 16)).map((i) => i.label), ['"csv-report"']);
    const fresh = items(await at(4, 4));
    assert.deepEqual(fresh.map((i) => i.label), ['new eval']);
    assert.match(String(fresh[0].insertText), /^\{ "id": 5, "prompt": "\$1"/);
    await changeDoc(srv.s, srv.uri, '{\n  \n}', 2);
    assert.deepEqual(items(await at(1, 2)).map((i) => `${i.label} (${i.detail})`), ['skill_name (string, optional)', 'evals (array of objects, required)']);
  });

  it('hover explains a field of the file and of a case; not the values, not a field of the wrong level', async () => {
    await openDoc(srv.s, srv.uri, GOOD, 1);
    const hover = async (line: number, needle: string) => {
      const h = await srv.s.conn.sendRequest(HoverRequest.type, { textDocument: { uri: srv.uri }, position: { line, character: GOOD.split('\n')[line].indexOf(needle) + 2 } });
      return h ? (h.contents as MarkupContent).value : null;
    };
    assert.match(String(await hover(1, 'skill_name')), /^\*\*skill_name\*\*: string, optional/);
    const onFiles = await srv.s.conn.sendRequest(HoverRequest.type, { textDocument: { uri: srv.uri }, position: { line: 3, character: GOOD.split('\n')[3].indexOf('"files"') + 3 } });
    const files = GOOD.split('\n')[3].indexOf('"files"');
    assert.deepEqual(onFiles?.range, { start: { line: 3, character: files }, end: { line: 3, character: files + '"files"'.length } }, 'the hover covers the key, quotes included');
    assert.match(String(await hover(3, '"expected_output"')), /^\*\*expected_output\*\*: string, optional\n\nWhat a good result looks like/);
    assert.match(String(await hover(3, '"files"')), /^\*\*files\*\*: array of strings, optional/);
    assert.equal(await hover(3, 'Chart monthly'), null, 'no hover on a prompt itself');
    await changeDoc(srv.s, srv.uri, '{ "prompt": "x" }', 2);
    const h = await srv.s.conn.sendRequest(HoverRequest.type, { textDocument: { uri: srv.uri }, position: { line: 0, character: 4 } });
    assert.equal(h, null, '"prompt" is a field of a case, not of the file');
  });
});
