// Streamable HTTP for `agent-skills mcp --http`, both protocol eras on one endpoint, behind the guards (Host,
// Origin, token, body size). A body is one JSON-RPC message (a batch array is refused, as since 2025-06-18).
// Legacy clients (initialize, then mcp-session-id) get one SDK transport and one MCP session each, with a cap on
// concurrent sessions and an idle timeout that ends a session (and its runtime session) a client forgot; a
// 2026-07-28 request (per-request _meta) is answered on its own by modernDispatch.ts, with no session at all.
import { randomUUID } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { isInitializeRequest, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { bodyBudget, checkRequest, readBoundedBody, type GuardPolicy, type Refusal } from './httpGuards';
import type { McpBackend } from './mcpBackend';
import { mcpHandlers } from './mcpHandlers';
import { createMcpSession, type McpSession } from './mcpSession';
import { serveThroughTransport } from './webTransportBridge';
import { asksModern, dispatchModern, MODERN_VERSION, modernServer, type MirroredHeaders } from './modernDispatch';
import { openListen, type ListenStream } from './modernSubscriptions';
import { serveAdoptedSession } from './adoptedSession';
import { asksBeforeRuns, clientCanBeAsked } from './scriptConsent';
import { holdIdleConnections, KEEP_ALIVE_GRACE_MS, KEEP_ALIVE_HINT_MS } from './idleConnections';

/** Limits of the HTTP server. */
export interface HttpServerOptions {
  host: string;
  port: number;
  policy: GuardPolicy;
  maxSessions: number;
  idleTimeoutMs: number;
  /** Idle keep-alive connections: the time advertised to clients, and how much longer they stay open (idleConnections.ts). */
  keepAlive?: { hintMs: number; graceMs: number };
}

interface Live {
  transport: WebStandardStreamableHTTPServerTransport;
  session: McpSession;
  lastSeen: number;
}

/** The running server: its URL and a close that ends every session. */
export interface McpHttpServer {
  url: string;
  sessions(): number;
  close(): Promise<void>;
}

function refuse(res: http.ServerResponse, r: Refusal, close = false, code = -32000): void {
  if (res.headersSent) return;
  // JSON-RPC error shape, so an MCP client shows the message rather than a bare status.
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message: r.message }, id: null });
  res.writeHead(r.status, { 'content-type': 'application/json', ...(close ? { connection: 'close' } : {}), ...r.headers });
  res.end(body);
}

/**
 * A client whose connection drops before its answer was written went away: its requests in that POST are
 * cancelled as if it had sent `notifications/cancelled`, so a script it started dies with it (issue 22.6).
 */
function cancelWhenDropped(transport: WebStandardStreamableHTTPServerTransport, res: http.ServerResponse, body: unknown): void {
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
  const modern = modernServer(backend, mcpHandlers(backend));
  /** Open 2026-07-28 `subscriptions/listen` streams, ended gracefully on close(); at most --max-sessions at once. */
  const listens = new Set<{ stream: ListenStream; res: http.ServerResponse }>();
  /** Bytes of bodies still arriving, over all connections (httpGuards.readBoundedBody). */
  const bodies = bodyBudget(o.policy.maxBodyBytes);

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
      const raw = await readBoundedBody(req, o.policy.maxBodyBytes, bodies);
      if (!Buffer.isBuffer(raw)) {
        res.on('finish', () => req.socket.destroy());
        return refuse(res, raw, true);
      }
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        return refuse(res, { status: 400, message: 'Parse error: the request body is not JSON.' }, false, -32700);
      }
      // Since 2025-06-18 a POST carries one message: a JSON-RPC batch (an array) is refused whole, none of it run.
      if (Array.isArray(body)) return refuse(res, { status: 400, message: 'Invalid request: the body is a JSON-RPC batch (an array); send each message in its own POST.' }, false, -32600);
    }
    const sid = req.headers['mcp-session-id'];
    const versionHeader = req.headers['mcp-protocol-version'];
    // The modern revision: per-request _meta (or its version header) and no session: answered here, on its own.
    if (req.method === 'POST' && typeof sid !== 'string' && (asksModern(body) || versionHeader === MODERN_VERSION || !isInitializeRequest(body))) {
      const done = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) done.abort();
      });
      const one = (name: string) => (typeof req.headers[name] === 'string' ? (req.headers[name] as string) : undefined);
      const headers: MirroredHeaders = { 'mcp-protocol-version': one('mcp-protocol-version'), 'mcp-method': one('mcp-method'), 'mcp-name': one('mcp-name') };
      const answer = await dispatchModern(modern, body, headers, done.signal);
      if (res.headersSent || res.destroyed) return;
      if (answer.listen) {
        if (listens.size >= o.maxSessions) return refuse(res, { status: 503, message: `This server already holds ${o.maxSessions} subscription streams (--max-sessions); close one or try again later.`, headers: { 'retry-after': '5' } });
        // One SSE response per subscription: acknowledgment first, then the notifications, until either side ends it.
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
        const write = (m: Record<string, unknown>) => void res.write(`event: message\ndata: ${JSON.stringify(m)}\n\n`);
        const entry = { stream: openListen(backend, answer.listen, write), res };
        listens.add(entry);
        const keepAlive = setInterval(() => res.write(':\n\n'), 15_000);
        keepAlive.unref();
        res.on('close', () => {
          clearInterval(keepAlive);
          listens.delete(entry);
          entry.stream.close(false);
        });
        return;
      }
      if (!answer.body) {
        res.writeHead(answer.status).end();
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
      return;
    }
    if (typeof sid === 'string') {
      let l = live.get(sid);
      // A shared state store: any replica serves a session the store holds; one gone from it (ended on another
      // replica, expired) is gone here too.
      if (backend.sharesSessions) {
        if (!(await backend.handles.legacy.has(sid))) {
          if (l) await end(sid);
          l = undefined;
        } else if (!l) return serveAdoptedSession(backend, sid, req, res, body);
        else if (req.method === 'DELETE') await backend.handles.legacy.close(sid);
      }
      if (!l) return refuse(res, { status: 404, message: `Session ${sid.slice(0, 64)} is not known here (ended, idled out, or the server restarted): initialize a new session.` });
      l.lastSeen = Date.now();
      cancelWhenDropped(l.transport, res, body);
      await serveThroughTransport(l.transport, req, res, body);
      l.lastSeen = Date.now();
      return;
    }
    if (req.method !== 'POST') return refuse(res, { status: 400, message: `No mcp-session-id header: a ${req.method} needs the session of an earlier initialize (protocol ${MODERN_VERSION} has no sessions and uses POST only).` });
    if (live.size + pending >= o.maxSessions) return refuse(res, { status: 503, message: `This server already holds ${o.maxSessions} sessions (--max-sessions); end one (DELETE /mcp) or try again later.`, headers: { 'retry-after': '5' } });
    pending++;
    const id = randomUUID();
    let session: McpSession | undefined;
    try {
      // A client that may be asked before a script runs gets its answers as SSE: the question goes out on the
      // tool call's own response stream (scriptConsent.ts). Every other client gets plain JSON answers.
      const asks = asksBeforeRuns(backend) && clientCanBeAsked((body as { params?: { capabilities?: unknown } }).params?.capabilities);
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => id, enableJsonResponse: !asks });
      session = await createMcpSession(backend, id, false, asks);
      transport.onclose = () => void end(id);
      await session.server.connect(transport);
      live.set(id, { transport, session, lastSeen: Date.now() });
      await serveThroughTransport(transport, req, res, body);
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
  holdIdleConnections(server, o.keepAlive?.hintMs ?? KEEP_ALIVE_HINT_MS, o.keepAlive?.graceMs ?? KEEP_ALIVE_GRACE_MS);

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
      for (const l of [...listens]) {
        l.stream.close(true);
        l.res.end();
      }
      await Promise.all([...live.keys()].map(end));
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await modern.close();
    },
  };
}
