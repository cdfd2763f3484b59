// Idle keep-alive connections of `agent-skills mcp --http` (src/cli/mcp/idleConnections.ts). In loaded runs of 50
// HTTP clients the bench saw "fetch failed" (ECONNRESET, "other side closed"): undici reuses an idle connection up
// to the advertised `Keep-Alive: timeout` minus 2 s, by a timer that runs late when its event loop is busy, while
// Node's server closed it 1 s after the advertised time. The server must keep an idle connection open well past
// what it advertises. The real HTTP server over a real backend: a client that reuses its connection later than it
// was told (as a late timer or a proxy that ignores the hint does) still gets its answer on that connection, and
// the connection is still closed once the grace is over.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { Socket } from 'node:net';
import * as path from 'node:path';
import { createMcpBackend, type McpBackend } from '../../src/cli/mcp/mcpBackend';
import { guardPolicy } from '../../src/cli/mcp/httpGuards';
import { startHttpServer, type McpHttpServer } from '../../src/cli/mcp/httpServer';
import { makeTempDir } from '../support/tempDir';
import { MODERN_META, writeFixtureSkills } from './mcpSupport';

const HINT_MS = 1_000;
const GRACE_MS = 4_000;

/**
 * A client that keeps one connection and reuses it whenever it likes: Node's keep-alive agent, with its own
 * drop timer (which reads the server's Keep-Alive hint) turned off, as a proxy that ignores the hint, or a client
 * whose timer runs late, behaves.
 */
class LateAgent extends http.Agent {
  constructor() {
    super({ keepAlive: true, maxSockets: 1 });
  }
  override keepSocketAlive(socket: Socket): boolean {
    socket.setKeepAlive(true);
    socket.unref();
    return true;
  }
}

/** A 2026-07-28 tools/list through `agent`: its status, headers, body, and whether it went on a reused connection. */
function toolsList(url: URL, agent: http.Agent, id: number): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string; reused: boolean; socket: Socket }> {
  const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: MODERN_META } });
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' } },
      (res) => {
        const socket = res.socket;
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, reused: req.reusedSocket, socket }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('agent-skills mcp --http: idle keep-alive connections', function () {
  this.timeout(60_000);
  let tmp: { dir: string; cleanup: () => void };
  let backend: McpBackend;
  let server: McpHttpServer;

  before(async () => {
    tmp = makeTempDir('mcp-keepalive-');
    const skills = path.join(tmp.dir, 'skills');
    writeFixtureSkills(skills);
    backend = await createMcpBackend({ roots: [{ path: skills, scope: 'workspace' }], stateDir: path.join(tmp.dir, 'state'), surface: 'standard', allowScripts: false, readOnly: false, watch: false });
    const policy = guardPolicy('127.0.0.1', { allowHosts: [], allowOrigins: [], maxBodyBytes: 1024 * 1024 });
    server = await startHttpServer(backend, { host: '127.0.0.1', port: 0, policy, maxSessions: 8, idleTimeoutMs: 60_000, keepAlive: { hintMs: HINT_MS, graceMs: GRACE_MS } });
  });
  after(async () => {
    await server?.close();
    await backend?.close();
    tmp?.cleanup();
  });

  it('answers a request sent on a connection left idle past the advertised time, and closes it after the grace', async () => {
    const url = new URL(server.url);
    const agent = new LateAgent();
    try {
      const first = await toolsList(url, agent, 1);
      assert.equal(first.status, 200, first.body);
      assert.ok(JSON.parse(first.body).result.tools.length > 0, first.body);
      assert.equal(first.headers['keep-alive'], `timeout=${HINT_MS / 1000}`, 'the advertised keep-alive time');
      const closed = new Promise<number>((resolve) => first.socket.once('close', () => resolve(performance.now())));
      // Reused 2 s after the advertised time (Node alone closes an idle connection 1 s after it).
      await new Promise((resolve) => setTimeout(resolve, HINT_MS + 2_000));
      const second = await toolsList(url, agent, 2);
      assert.equal(second.reused, true, "the second request went on the first one's connection");
      assert.equal(second.status, 200, second.body);
      assert.ok(JSON.parse(second.body).result.tools.length > 0, second.body);
      // Idle again: the server still closes the connection, once the advertised time and the grace are over.
      const idleAgain = performance.now();
      const closedAt = await Promise.race([closed, new Promise<number>((_, reject) => setTimeout(() => reject(new Error('the idle connection was never closed')), HINT_MS + GRACE_MS + 10_000).unref())]);
      assert.ok(closedAt - idleAgain >= HINT_MS + GRACE_MS - 100, `closed ${Math.round(closedAt - idleAgain)} ms after it went idle`);
    } finally {
      agent.destroy();
    }
  });
});
