// Red team (issue 22, third pass): the HTTP server against clients that send their bodies slowly on many
// connections. Each body was bounded by --max-body-kb, but not how many the server held at once: 2,000 connections
// each half-way through a 1 MB body grew the server to 0.8 GB (and it would hold --max-body-kb times any number of
// connections). Now the bodies still arriving share a budget of 64 times --max-body-kb; past it a connection gets 503
// with Retry-After and is closed, and a body that ends or goes away gives its bytes back.
import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import * as path from 'node:path';
import { makeTempDir } from '../support/tempDir';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { modernPost, serverArgs, startHttpProcess, waitFor, writeFixtureSkills } from './mcpSupport';

const MAX_BODY_KB = 16;
/** The server's budget for bodies still arriving: 64 bodies of --max-body-kb (src/cli/mcp/httpGuards.ts). */
const BUDGET = 64 * MAX_BODY_KB * 1024;
const HALF_BODY = 15_000;
const CONNECTIONS = 100;

describe('agent-skills mcp --http: bodies sent slowly on many connections are held within one budget (red team)', function () {
  this.timeout(90_000);
  let tmp: { dir: string; cleanup: () => void };
  let server: Awaited<ReturnType<typeof startHttpProcess>> | undefined;
  const sockets: net.Socket[] = [];
  before(async function () {
    this.timeout(BUILD_TIMEOUT_MS);
    await ensureBuilt();
    tmp = makeTempDir('mcp-bodies-');
    writeFixtureSkills(path.join(tmp.dir, 'skills'));
    server = await startHttpProcess(serverArgs(path.join(tmp.dir, 'skills'), path.join(tmp.dir, 'state'), ['--http', '127.0.0.1:0', '--max-body-kb', String(MAX_BODY_KB)]));
  });
  after(async () => {
    for (const s of sockets) s.destroy();
    await server?.stop();
    tmp?.cleanup();
  });

  it(`${CONNECTIONS} connections each ${HALF_BODY} bytes into a body: those past the budget get 503 and the rest is held; closed, they give their bytes back`, async () => {
    const answers: string[] = [];
    for (let i = 0; i < CONNECTIONS; i++) {
      const s = net.connect(Number(server!.url.port), '127.0.0.1');
      sockets.push(s);
      let text = '';
      let answered = false;
      s.on('data', (d: Buffer) => {
        text += d.toString();
        const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
        if (status && !answered) {
          answered = true;
          answers.push(status);
        }
      });
      s.on('error', () => undefined);
      s.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${MAX_BODY_KB * 1024 - 1}\r\n\r\n{"jsonrpc":"2.0","pad":"${'a'.repeat(HALF_BODY)}`);
    }
    const held = Math.floor(BUDGET / HALF_BODY);
    // Every connection past what the budget holds is answered, and only with 503.
    await waitFor(`${CONNECTIONS - held} answers`, () => (answers.length >= CONNECTIONS - held ? true : undefined), 30_000);
    assert.ok(answers.every((a) => a === '503'), `answers: ${answers.join(', ')}`);
    assert.ok(answers.length <= CONNECTIONS - held + 1, `${answers.length} answered, but the budget holds ${held} bodies of ${HALF_BODY} bytes`);
    // The slow clients go away: their bytes are given back, and a whole request as large as theirs is served again.
    for (const s of sockets.splice(0)) s.destroy();
    const ok = await waitFor('a request served after the slow clients left', async () => {
      const r = await modernPost(server!.url, 1, 'tools/list', { pad: 'b'.repeat(HALF_BODY) });
      return r.status === 200 ? r : undefined;
    }, 15_000);
    assert.ok(Array.isArray(ok.json?.result?.tools), JSON.stringify(ok.json).slice(0, 300));
  });
});
