import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { StreamMessageReader } from 'vscode-languageserver-protocol/node';
import { repeatTo, SHAPES } from '../support/prefixFamily';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { fileUri, openDoc, startServer, type LspSession } from './lspTestClient';

/**
 * A request never waits for a validation (issue 22, point 3): a hover sent right behind a 1 MB hostile document is
 * answered from the parsed text before the rules run on it, and a version a newer one replaced before its rules
 * started is never validated. Asserted on the order of the server's messages, not on time.
 */
describe('language server: a hover behind a 1 MB document answers before its validation', function () {
  this.timeout(120_000);
  let s: LspSession;
  let root: string;
  let uri: string;
  const small = SHAPES.body('small');
  const HOVER_ID = 'hover-behind-change';
  // `[a](` repeated: each link target once ran to the end of the file; still the costliest of the family to check.
  const hostile = SHAPES.body(repeatTo('[a](', 1_000_000));

  before(async function () {
    this.timeout(BUILD_TIMEOUT_MS);
    ensureBuilt();
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'ask-hover-first-'));
    fs.mkdirSync(path.join(root, 'fuzz'));
    uri = fileUri(path.join(root, 'fuzz', 'SKILL.md'));
  });
  beforeEach(async () => {
    s = await startServer({ initializationOptions: { debounceMs: 0, scanWorkspace: false } });
    await openDoc(s, uri, small, 1);
    await s.waitForDiagnostics(uri, (p) => p.version === 1);
  });
  afterEach(async () => {
    await s.stop();
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  /**
   * Writes `messages` to the server in one write (so they arrive together, as from a client that sends a hover right
   * behind a change) and records, in order, the server's answer to the hover and its publications for `uri`.
   */
  function sendTogether(messages: object[]): string[] {
    const order: string[] = [];
    new StreamMessageReader(s.child.stdout!).listen((m) => {
      const msg = m as { id?: unknown; method?: string; params?: { uri?: string; version?: number }; result?: { contents?: { value?: string } } };
      if (msg.id === HOVER_ID) order.push(`hover ${/\*\*name\*\* \(required\)/.test(msg.result?.contents?.value ?? '') ? 'on name' : 'empty'}`);
      else if (msg.method === 'textDocument/publishDiagnostics' && msg.params?.uri === uri) order.push(`publish v${msg.params.version}`);
    });
    const frames = messages.map((m) => {
      const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...m }));
      return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]);
    });
    s.child.stdin!.write(Buffer.concat(frames));
    return order;
  }
  const change = (text: string, version: number) => ({ method: 'textDocument/didChange', params: { textDocument: { uri, version }, contentChanges: [{ text }] } });
  const hoverOnName = () => ({ id: HOVER_ID, method: 'textDocument/hover', params: { textDocument: { uri }, position: { line: 1, character: 2 } } });

  it('answers the hover before the 1 MB version is validated, then publishes that version', async () => {
    const order = sendTogether([change(hostile, 2), hoverOnName()]);
    const v2 = await s.waitForDiagnostics(uri, (p) => p.version === 2, 60_000);
    assert.ok(v2.diagnostics.length > 0, 'version 2 is validated');
    assert.deepEqual(order, ['hover on name', 'publish v2'], 'the hover is answered from the parsed text before version 2 is validated');
  });

  it('never validates a version that a newer one replaced before its rules started', async () => {
    const order = sendTogether([change(hostile, 2), hoverOnName(), change(small.replace('small', 'small again'), 3)]);
    await s.waitForDiagnostics(uri, (p) => p.version === 3, 60_000);
    assert.deepEqual(order, ['hover on name', 'publish v3'], 'version 2 was replaced before its rules ran: never validated nor published');
  });
});
