// A skill's trigger set (evals/trigger-queries.json, issue 27 point 1) in the real language server over stdio:
// schema errors, duplicates, a set without a positive or a negative, a request that names the skill, each on the
// editor's text and fixed live; completion of the fields and their values; hover on a field and on a split.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { CompletionRequest, DidChangeWatchedFilesNotification, FileChangeType, HoverRequest, type CompletionItem, type MarkupContent } from 'vscode-languageserver-protocol/node';
import { MAX_TRIGGER_FILE_CHARS } from '../../src/core/evals';
import { withinCpu } from '../support/processCpu';
import { skillJsonServer } from '../support/skillJsonServer';
import { fileUri, openDoc } from './lspTestClient';

const GOOD = `[
  { "query": "turn these meeting notes into a summary for the team", "should_trigger": true, "split": "train" },
  { "query": "can you summarise this call transcript in five bullets", "should_trigger": true, "split": "validation" },
  { "query": "translate this summary into French", "should_trigger": false, "note": "near miss: shares 'summary'" }
]
`;

function labels(r: CompletionItem[] | { items: CompletionItem[] } | null): string[] {
  return (Array.isArray(r) ? r : (r?.items ?? [])).map((i) => i.label);
}

describe('language server: a skill\'s trigger set (evals/trigger-queries.json)', function () {
  this.timeout(30_000);
  const srv = skillJsonServer({
    tmpPrefix: 'lsp-trigger-',
    // The folder's name differs from the skill's name: the name checked is the SKILL.md's.
    files: {
      '.github/skills/notes/SKILL.md': '---\nname: meeting-notes\ndescription: Summarises meeting notes and transcripts into action items. Use when the user shares notes or a transcript.\n---\n# Meeting notes\n',
    },
    document: '.github/skills/notes/evals/trigger-queries.json',
  });
  const { write, diagnosticsOf } = srv;

  it('a well-formed set has no findings', async () => {
    assert.deepEqual(await diagnosticsOf(GOOD, 1), []);
  });

  it('is not revalidated as a SKILL.md when a file of its skill changes', async () => {
    assert.deepEqual(await diagnosticsOf(GOOD, 1), []);
    // The editor saved the trigger file (a file of the skill): the skill is revalidated, not the trigger file as a skill.
    write('.github/skills/notes/evals/trigger-queries.json', GOOD);
    const skill = fileUri(path.join(srv.ws, '.github', 'skills', 'notes', 'SKILL.md'));
    await srv.s.conn.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: skill, type: FileChangeType.Changed }, { uri: srv.uri, type: FileChangeType.Created }] });
    await srv.s.waitForDiagnostics(skill);
    // The skill's revalidation is done: whatever it published for the trigger file is in by now.
    await srv.s.conn.sendRequest(HoverRequest.type, { textDocument: { uri: srv.uri }, position: { line: 1, character: 8 } });
    const wrong = srv.s.published.filter((p) => p.uri === srv.uri).flatMap((p) => p.diagnostics).filter((d) => !String(d.code).startsWith('trigger-'));
    assert.deepEqual(wrong.map((d) => d.code), [], 'the trigger file got SKILL.md findings');
  });

  it('schema errors: not an array, a request that is not an object, a missing or mistyped field, a bad split, an unknown field', async () => {
    const notArray = await diagnosticsOf('{ "query": "x", "should_trigger": true }', 1);
    assert.equal(notArray.length, 1);
    assert.match(String(notArray[0].message), /must be a JSON array of requests.*it is an object/);
    const text = `[
  "just a string",
  { "query": "summarise these notes", "should_trigger": "yes" },
  { "should_trigger": false },
  { "query": "summarise the standup", "should_trigger": true, "split": "test", "shouldTrigger": true }
]`;
    const d = await diagnosticsOf(text, 2);
    const byLine = (line: number) => d.filter((x) => x.range.start.line === line).map((x) => `${x.code}/${x.severity}: ${String(x.message)}`);
    assert.match(byLine(1).join('\n'), /trigger-shape\/1: Request 1 .* must be an object/);
    assert.match(byLine(2).join('\n'), /trigger-field\/1: Request 2: "should_trigger" must be a boolean \(true or false, without quotes\); it is a string/);
    assert.match(byLine(3).join('\n'), /trigger-field\/1: Request 3 has no "query"/);
    const four = byLine(4).join('\n');
    assert.match(four, /trigger-field\/1: Request 4: "split" is "test"; it must be "train" or "validation"/);
    assert.match(four, /trigger-field\/2: Request 4: unknown field "shouldTrigger"/);
    // The diagnostic sits on the field's value, not on the whole file.
    const mistyped = d.find((x) => /"should_trigger" must be a boolean/.test(String(x.message)));
    assert.equal(text.split('\n')[2].slice(mistyped?.range.start.character, mistyped?.range.end.character), '"yes"');
  });

  it('duplicates: the same request again is a warning naming the first line; with the opposite answer, an error', async () => {
    const text = `[
  { "query": "Summarise these notes", "should_trigger": true },
  { "query": "summarise  these notes.", "should_trigger": true },
  { "query": "summarise these notes", "should_trigger": false }
]`;
    const d = (await diagnosticsOf(text, 1)).filter((x) => x.code === 'trigger-duplicate');
    assert.deepEqual(
      d.map((x) => [x.range.start.line, x.severity]),
      [
        [2, 2],
        [3, 1],
      ],
    );
    assert.match(String(d[0].message), /Request 2 repeats the request on line 2/);
    assert.match(String(d[1].message), /opposite should_trigger/);
  });

  it('a set with no negative, or no positive, is a warning; fixed live in the buffer', async () => {
    const positives = `[\n  { "query": "summarise these notes", "should_trigger": true }\n]`;
    const d1 = (await diagnosticsOf(positives, 1)).filter((x) => x.code === 'trigger-balance');
    assert.equal(d1.length, 1);
    assert.match(String(d1[0].message), /no request with "should_trigger": false/);
    const negatives = positives.replace('true', 'false');
    const d2 = (await diagnosticsOf(negatives, 2)).filter((x) => x.code === 'trigger-balance');
    assert.match(d2.map((x) => String(x.message)).join('\n'), /no request with "should_trigger": true/);
    assert.deepEqual(await diagnosticsOf(GOOD, 3), []);
  });

  it('a request that calls the skill by its SKILL.md name (as written, or "the <name> skill") is a warning on that request; its words used as words are not', async () => {
    const text = `[
  { "query": "use meeting-notes on this", "should_trigger": true },
  { "query": "run the Meeting Notes skill please", "should_trigger": true },
  { "query": "notes from my meeting, anything to do?", "should_trigger": true },
  { "query": "translate this", "should_trigger": false }
]`;
    const d = (await diagnosticsOf(text, 1)).filter((x) => x.code === 'trigger-names-skill');
    assert.deepEqual(d.map((x) => x.range.start.line), [1, 2]);
    assert.match(String(d[0].message), /names the skill "meeting-notes": it tests the name, not the description/);
  });

  it('invalid JSON names the problem; a file over the size or depth bound is not parsed and says so', async () => {
    const bad = await diagnosticsOf('[ { "query": "x", "should_trigger": true }, ]', 1);
    assert.ok(bad.some((x) => x.code === 'trigger-json' && /not valid JSON here/.test(String(x.message))), JSON.stringify(bad));
    const huge = `[${'{ "query": "q", "should_trigger": true },'.repeat(Math.ceil(MAX_TRIGGER_FILE_CHARS / 40))}{ "query": "last", "should_trigger": false }]`;
    // The server's work for it is bounded in its CPU time (/proc), not by the clock, which a loaded machine stretches.
    const { value: d, cpuMs } = await withinCpu(srv.s.child.pid!, 2000, () => diagnosticsOf(huge, 2), 'the server, on an oversized trigger file');
    assert.deepEqual(d.map((x) => x.code), ['trigger-size']);
    assert.match(String(d[0].message), /over the 1048576 read: it is not checked/);
    console.log(`      the oversized file: ${cpuMs} ms of server CPU (budget 2000 ms)`);
    // Nested 100,000 deep (the parser recurses per level): refused by the depth bound; completion and hover too, and the server lives on.
    const deep = `[${'['.repeat(100_000)}${']'.repeat(100_000)}]`;
    assert.deepEqual((await diagnosticsOf(deep, 3)).map((x) => x.code), ['trigger-shape']);
    assert.deepEqual(labels(await srv.s.conn.sendRequest(CompletionRequest.type, { textDocument: { uri: srv.uri }, position: { line: 0, character: 50_000 } })), []);
    assert.equal(await srv.s.conn.sendRequest(HoverRequest.type, { textDocument: { uri: srv.uri }, position: { line: 0, character: 50_000 } }), null);
    assert.deepEqual(await diagnosticsOf(GOOD, 4), []);
  });

  it('completes the fields a request lacks (with their meaning), boolean values, split values, and a new request', async () => {
    const text = `[\n  { "query": "summarise these notes",  },\n  { "query": "x", "should_trigger":  },\n  { "query": "y", "should_trigger": true, "split":  },\n  \n]`;
    await openDoc(srv.s, srv.uri, text, 1);
    const fields = await srv.s.conn.sendRequest(CompletionRequest.type, { textDocument: { uri: srv.uri }, position: { line: 1, character: 38 } });
    assert.deepEqual(labels(fields).sort(), ['note', 'should_trigger', 'split'], 'query is there already');
    const item = (Array.isArray(fields) ? fields : (fields?.items ?? [])).find((i) => i.label === 'should_trigger');
    assert.match((item?.documentation as MarkupContent).value, /near miss/);
    assert.equal(item?.insertText, '"should_trigger": ${1|true,false|}');
    assert.deepEqual(labels(await srv.s.conn.sendRequest(CompletionRequest.type, { textDocument: { uri: srv.uri }, position: { line: 2, character: 37 } })), ['true', 'false']);
    assert.deepEqual(labels(await srv.s.conn.sendRequest(CompletionRequest.type, { textDocument: { uri: srv.uri }, position: { line: 3, character: 52 } })), ['"train"', '"validation"']);
    assert.deepEqual(labels(await srv.s.conn.sendRequest(CompletionRequest.type, { textDocument: { uri: srv.uri }, position: { line: 4, character: 2 } })), ['new request']);
  });

  it('hover explains a field where it is written, and a split value', async () => {
    await openDoc(srv.s, srv.uri, GOOD, 1);
    const line = GOOD.split('\n')[1];
    const onKey = await srv.s.conn.sendRequest(HoverRequest.type, { textDocument: { uri: srv.uri }, position: { line: 1, character: line.indexOf('should_trigger') + 2 } });
    assert.match((onKey?.contents as MarkupContent).value, /^\*\*should_trigger\*\*: boolean, required/);
    const onSplit = await srv.s.conn.sendRequest(HoverRequest.type, { textDocument: { uri: srv.uri }, position: { line: 1, character: line.indexOf('"train"') + 2 } });
    assert.match((onSplit?.contents as MarkupContent).value, /used while tuning the description/);
    // Each hover covers the JSON string it is on, quotes included.
    const key = line.indexOf('"should_trigger"');
    assert.deepEqual(onKey?.range, { start: { line: 1, character: key }, end: { line: 1, character: key + '"should_trigger"'.length } });
    const split = line.indexOf('"train"');
    assert.deepEqual(onSplit?.range, { start: { line: 1, character: split }, end: { line: 1, character: split + '"train"'.length } });
    const onQueryText = await srv.s.conn.sendRequest(HoverRequest.type, { textDocument: { uri: srv.uri }, position: { line: 1, character: line.indexOf('meeting') } });
    assert.equal(onQueryText, null, 'no hover on the request text itself');
  });
});
