// Streamable HTTP for `agent-skills mcp --http`: one SDK transport and one MCP session per client, behind the
// guards (Host, Origin, token, body size), with a cap on concurrent sessions and an idle timeout that ends a
// session (and its runtime session) a client forgot.
import { randomUUID } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { checkRequest, readBoundedBody, type GuardPolicy, type Refusal } from './httpGuards';
import type { McpBackend } from './mcpBackend';
import { createMcpSession, type McpSession } from './mcpSession';

/** Limits of the HTTP server. */
export interface HttpServerOptions {
  host: string;
  port: number;
  policy: GuardPolicy;
  maxSessions: number;
  idleTimeoutMs: number;
}

interface Live {
  transport: StreamableHTTPServerTransport;
  session: McpSession;
  lastSeen: number;
}

/** The running server: its URL and a close that ends every session. */
export interface McpHttpServer {
  url: string;
  sessions(): number;
  close(): Promise<void>;
}

function refuse(res: http.ServerResponse, r: Refusal, close = false): void {
  if (res.headersSent) return;
  // JSON-RPC error shape, so an MCP client shows the message rather than a bare status.
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: r.message }, id: null });
  res.writeHead(r.status, { 'content-type': 'application/json', ...(close ? { connection: 'close' } : {}), ...r.headers });
  res.end(body);
}

/**
 * A client whose connection drops before its answer was written went away: its requests in that POST are
 * cancelled as if it had sent `notifications/cancelled`, so a script it started dies with it (issue 22.6).
 */
function cancelWhenDropped(transport: StreamableHTTPServerTransport, res: http.ServerResponse, body: unknown): void {
  const ids = (Array.isArray(body) ? body : [body]).flatMap((m) => (m && typeof m === 'object' && 'method' in m && 'id' in m && (typeof m.id === 'string' || typeof m.id === 'number') ? [m.id] : []));
  if (ids.length === 0) return;
  res.once('close', () => {
    if (res.writableFinished) return;
    for (const requestId of ids) transport.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'the client disconnected' } });
  });
}

/** Starts listening; resolves once the port is bound. */
export async function startHttpServer(backend: McpBackend, o: HttpServerOptions): Promise<McpHttpServer> {
  const live = new Map<string, Live>();
  let pending = 0;

  const end = async (id: string) => {
    const l = live.get(id);
    if (!l) return;
    live.delete(id);
    await l.session.dispose().catch(() => undefined);
    await l.transport.close().catch(() => undefined);
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = req.url ?? '/';
    if (url.split('?')[0] !== '/mcp') return refuse(res, { status: 404, message: `Nothing is served at ${url.slice(0, 100)}: the MCP endpoint is /mcp.` });
    const bad = checkRequest(req, o.policy);
    if (bad) return refuse(res, bad);
    let body: unknown;
    if (req.method === 'POST') {
      const raw = await readBoundedBody(req, o.policy.maxBodyBytes);
      if (!Buffer.isBuffer(raw)) {
        res.on('finish', () => req.socket.destroy());
        return refuse(res, raw, true);
      }
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        return refuse(res, { status: 400, message: 'The request body is not JSON.' });
      }
    }
    const sid = req.headers['mcp-session-id'];
    if (typeof sid === 'string') {
      const l = live.get(sid);
      if (!l) return refuse(res, { status: 404, message: `Session ${sid.slice(0, 64)} is not known here (ended, idled out, or the server restarted): initialize a new session.` });
      l.lastSeen = Date.now();
      cancelWhenDropped(l.transport, res, body);
      await l.transport.handleRequest(req, res, body);
      l.lastSeen = Date.now();
      return;
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) return refuse(res, { status: 400, message: 'No mcp-session-id header: the first request of a session must be a POST of initialize.' });
    if (live.size + pending >= o.maxSessions) return refuse(res, { status: 503, message: `This server already holds ${o.maxSessions} sessions (--max-sessions); end one (DELETE /mcp) or try again later.`, headers: { 'retry-after': '5' } });
    pending++;
    const id = randomUUID();
    let session: McpSession | undefined;
    try {
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => id, enableJsonResponse: true });
      session = await createMcpSession(backend, id);
      transport.onclose = () => void end(id);
      await session.server.connect(transport);
      live.set(id, { transport, session, lastSeen: Date.now() });
      await transport.handleRequest(req, res, body);
      if (transport.sessionId !== id) await end(id);
    } catch (e) {
      if (live.has(id)) await end(id);
      else await session?.dispose().catch(() => undefined);
      throw e;
    } finally {
      pending--;
    }
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      process.stderr.write(`agent-skills mcp: request failed: ${(e as Error).stack ?? e}\n`);
      refuse(res, { status: 500, message: 'The server failed on this request; see its stderr.' });
    });
  });
  server.headersTimeout = 30_000;
  server.requestTimeout = 120_000;

  const sweep = setInterval(
    () => {
      const cutoff = Date.now() - o.idleTimeoutMs;
      for (const [id, l] of live) if (l.lastSeen < cutoff) void end(id);
    },
    Math.max(250, Math.min(30_000, Math.floor(o.idleTimeoutMs / 4))),
  );
  sweep.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const shownHost = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${shownHost}:${addr.port}/mcp`,
    sessions: () => live.size,
    async close() {
      clearInterval(sweep);
      await Promise.all([...live.keys()].map(end));
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
    },
  };
}
