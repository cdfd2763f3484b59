import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { DocumentSymbolRequest, HoverRequest } from 'vscode-languageserver-protocol/node';
import { hostileDocs } from '../support/hostileDocs';
import { changeDoc, fileUri, openDoc, repoRoot, startServer, type LspSession } from './lspTestClient';

/**
 * The goal is an answer within 1 s of the request on a quiet machine. The deadline here is counted from the
 * request itself and is generous for a loaded 2-core machine, yet far below what these documents cost before
 * the parser's limits: 400 nested `{` kept the server busy for 274 s, 50,000 for many minutes.
 */
const ANSWER_DEADLINE_MS = 2000;

/** Sends a request and resolves with how long the answer took, or rejects past the deadline. */
async function timed<T>(send: () => Promise<T>, what: string): Promise<number> {
  const start = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ANSWER_DEADLINE_MS} ms of the request`)), ANSWER_DEADLINE_MS);
  });
  try {
    await Promise.race([send(), late]);
  } finally {
    clearTimeout(timer);
  }
  return Date.now() - start;
}

describe('language server: answers the next request promptly after any document (issue 11, point 6)', function () {
  this.timeout(300_000);
  let s: LspSession;

  before(async () => {
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: repoRoot, stdio: 'pipe' });
    s = await startServer({ initializationOptions: { debounceMs: 0, scanWorkspace: false } });
  });
  after(async () => {
    await s.stop();
  });

  const uri = fileUri('/tmp/agent-skills-hostile/evil/SKILL.md');
  let version = 0;
  const docs = hostileDocs();

  for (const doc of docs) {
    it(doc.name, async () => {
      version++;
      if (version === 1) await openDoc(s, uri, doc.text, version);
      else await changeDoc(s, uri, doc.text, version);
      // The request goes out right behind the hostile text: it waits for whatever that text costs.
      const textDocument = { uri };
      const hoverMs = await timed(() => s.conn.sendRequest(HoverRequest.type, { textDocument, position: { line: 1, character: 2 } }), `hover after ${doc.name}`);
      const symbolsMs = await timed(() => s.conn.sendRequest(DocumentSymbolRequest.type, { textDocument }), `symbols after ${doc.name}`);
      const v = version;
      const diagnostics = await s.waitForDiagnostics(uri, (p) => p.version === v, 60_000);
      const messages = diagnostics.diagnostics.map((d) => d.message);
      assert.equal(new Set(messages).size, messages.length, `one message per distinct problem:\n${messages.join('\n')}`);
      assert.equal(s.child.exitCode, null, 'the server is still running');
      console.log(`      ${doc.name}: hover ${hoverMs} ms, symbols ${symbolsMs} ms, ${messages.length} diagnostic(s)`);
    });
  }

  it('printed nothing on stderr and logged no handler failure', () => {
    assert.doesNotMatch(s.stderr(), /\S/, 'nothing on stderr');
    assert.deepEqual(s.logs().filter((m) => /failed|uncaught|unhandled/i.test(m)), []);
  });
});
