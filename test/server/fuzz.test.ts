import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CodeActionRequest, CompletionRequest, DocumentSymbolRequest, HoverRequest } from 'vscode-languageserver-protocol/node';
import { hostileDocs } from '../support/hostileDocs';
import { seededRandom } from '../support/seededRandom';
import { changeDoc, corpusRoot, fileUri, openDoc, repoRoot, startServer, type LspSession } from './lspTestClient';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { testSize } from '../support/testSize';


const INSERTS = ['---', '---\n', ':', ': ', '"', "'", '\t', '\u0000', '\n', '\r\n', '#', '|', '>', '- ', '[', '{', '&a', '*a', '](', '`scripts/', '\ufeff', '\ud800'];

function mutate(text: string, rnd: () => number): string {
  const at = (n: number) => Math.floor(rnd() * n);
  let t = text;
  const steps = 1 + at(4);
  for (let i = 0; i < steps; i++) {
    const pos = at(t.length + 1);
    const kind = at(100);
    if (kind < 30) t = t.slice(0, pos) + String.fromCharCode(at(0x10000)) + t.slice(pos + 1); // flip one UTF-16 unit
    else if (kind < 40) t = t.slice(0, pos); // truncate
    else if (kind < 85) t = t.slice(0, pos) + INSERTS[at(INSERTS.length)] + t.slice(pos);
    else if (kind < 95) t = t.slice(0, pos) + t.slice(pos + at(200)); // delete a span
    else if (kind < 99) t = t.slice(0, pos) + 'x'.repeat(20_000 + at(200_000)) + t.slice(pos); // huge line
    else t = t.slice(0, pos) + String.fromCharCode(...Array.from({ length: 4096 }, () => at(256))) + t.slice(pos); // binary junk
  }
  return t;
}

describe('language server: fuzzing with mutated real SKILL.md files', function () {
  // A loaded 2-core machine ran the 10,000 mutations (structured attacks included) in 102 s.
  this.timeout(300_000);
  const MUTATIONS = testSize('mutations', 10_000, 1_000);
  const SEED = 20_251_121;
  let s: LspSession;

  before(function () {
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });
  before(async () => {
    s = await startServer({ initializationOptions: { debounceMs: 0, scanWorkspace: false } });
  });
  after(async () => {
    await s.stop();
  });

  it(`answers ${MUTATIONS} seeded mutations with diagnostics and never dies`, async () => {
    const skills = fs
      .readdirSync(corpusRoot)
      .map((d) => path.join(corpusRoot, d, 'SKILL.md'))
      .filter((f) => fs.existsSync(f));
    assert.ok(skills.length >= 10, `corpus at ${corpusRoot}`);
    const docs = skills.slice(0, 4).map((f) => ({ uri: fileUri(f), original: fs.readFileSync(f, 'utf8'), version: 1 }));
    for (const d of docs) {
      await openDoc(s, d.uri, d.original, 1);
      await s.waitForDiagnostics(d.uri, (p) => p.version === 1);
    }
    const rnd = seededRandom(SEED);
    // Structured attacks (deep nesting, alias expansion, very long lines, huge counts, invalid UTF-8) among
    // the random mutations: every 100th document is one of them, itself mutated, so each attack is also
    // tried with the damage around it.
    const attacks = hostileDocs();
    let withProblems = 0;
    for (let i = 0; i < MUTATIONS; i++) {
      const d = docs[i % docs.length];
      const text = i % 100 === 0 ? mutate(attacks[(i / 100) % attacks.length].text, rnd) : mutate(d.original, rnd);
      d.version++;
      await changeDoc(s, d.uri, text, d.version);
      const p = await s.waitForDiagnostics(d.uri, (x) => x.version === d.version, 10_000).catch((e: Error) => {
        throw new Error(`mutation ${i} (seed ${SEED}) got no diagnostics: ${e.message}`);
      });
      if (p.diagnostics.length > 0) withProblems++;
      for (const diag of p.diagnostics) assert.equal(diag.source, 'agent-skills');
      s.published.length = 0;
      if (i % 97 === 0) {
        // Requests against the mutated text must be answered too, not fail.
        const position = { line: Math.floor(rnd() * 12), character: Math.floor(rnd() * 40) };
        const textDocument = { uri: d.uri };
        await s.conn.sendRequest(CompletionRequest.type, { textDocument, position });
        await s.conn.sendRequest(HoverRequest.type, { textDocument, position });
        await s.conn.sendRequest(DocumentSymbolRequest.type, { textDocument });
        await s.conn.sendRequest(CodeActionRequest.type, { textDocument, range: { start: { line: 0, character: 0 }, end: position }, context: { diagnostics: p.diagnostics } });
      }
    }
    assert.equal(s.child.exitCode, null, 'the server is still running');
    assert.ok(withProblems > MUTATIONS / 10, `mutations produce problems (${withProblems})`);
    assert.doesNotMatch(s.stderr(), /\S/, 'nothing on stderr');
    assert.deepEqual(s.logs().filter((m) => /failed|uncaught|unhandled/.test(m)), [], 'no handler failed');
  });
});
