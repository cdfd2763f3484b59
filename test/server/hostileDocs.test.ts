import * as assert from 'node:assert/strict';
import { DocumentSymbolRequest, HoverRequest } from 'vscode-languageserver-protocol/node';
import { hostileDocs } from '../support/hostileDocs';
import { processCpuMs, withinCpu } from '../support/processCpu';
import { changeDoc, fileUri, openDoc, startServer, type LspSession } from './lspTestClient';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';

/**
 * The work the server does for a hostile document, and for the hover and symbols requests sent right behind it,
 * is bounded in CPU time of the server process, not in wall-clock time: a loaded machine stretches the second and
 * not the first. Each document costs the server well under 1 s of CPU (printed below); before the parser's limits,
 * 400 nested `{` kept it busy for 274 s, 50,000 for many minutes. How fast the answer comes is `npm run bench`'s
 * business (test/bench/hostile.bench.ts), not this test's.
 */
const CPU_BUDGET_MS = 2000;

describe('language server: answers the next request promptly after any document (issue 11, point 6)', function () {
  this.timeout(300_000);
  let s: LspSession;

  before(async function () {
    this.timeout(BUILD_TIMEOUT_MS);
    await ensureBuilt();
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
      const pid = s.child.pid!;
      const cpuBefore = processCpuMs(pid);
      // The requests go out right behind the hostile text: they wait for whatever that text costs.
      const textDocument = { uri };
      const answered = await withinCpu(
        pid,
        CPU_BUDGET_MS,
        async () => {
          if (version === 1) await openDoc(s, uri, doc.text, version);
          else await changeDoc(s, uri, doc.text, version);
          await s.conn.sendRequest(HoverRequest.type, { textDocument, position: { line: 1, character: 2 } });
          await s.conn.sendRequest(DocumentSymbolRequest.type, { textDocument });
        },
        `hover and symbols after ${doc.name}`,
      );
      const v = version;
      const diagnostics = await s.waitForDiagnostics(uri, (p) => p.version === v, 60_000);
      const messages = diagnostics.diagnostics.map((d) => d.message);
      assert.equal(new Set(messages).size, messages.length, `one message per distinct problem:\n${messages.join('\n')}`);
      assert.equal(s.child.exitCode, null, 'the server is still running');
      console.log(`      ${doc.name}: ${answered.cpuMs} ms of server CPU to answer, ${processCpuMs(pid) - cpuBefore} ms until its diagnostics, ${messages.length} diagnostic(s)`);
    });
  }

  it('printed nothing on stderr and logged no handler failure', () => {
    assert.doesNotMatch(s.stderr(), /\S/, 'nothing on stderr');
    assert.deepEqual(s.logs().filter((m) => /failed|uncaught|unhandled/i.test(m)), []);
  });
});
