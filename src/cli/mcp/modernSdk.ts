// The 2026-07-28 revision served by the SDK 2.4.0: its createMcpHandler runs the checks of that revision (the
// `_meta` envelope, MCP-Protocol-Version / Mcp-Method / Mcp-Name against the body with -32020, -32022 for another
// version, -32601 with HTTP 404 for a removed method), `server/discover`, `resultType`, the cache fields and
// `serverInfo` in `_meta`; a per-request SDK `Server` answers from the shared handler table of mcpHandlers.ts.
// What is ours: the state handle (SEP-2567, the tool argument `session`), taken out before the tool runs and
// returned in the result; `server/discover` listing the legacy versions too; the HTTP guards before any SDK
// code (httpServer.ts); `subscriptions/listen` (modernSubscriptions.ts). stdio has no headers: a message is
// answered by the same handler with the headers mirrored from its own body.
import * as http from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { createMcpHandler, Server, type McpHttpHandler } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { McpBackend } from './mcpBackend';
import { CACHE_SCOPE, CACHE_TTL_MS, mcpHandlers, paramsError, serverCapabilities } from './mcpHandlers';
import { SERVER_INFO } from './mcpSession';
import { HandleSessionError, SESSION_ARG, SESSION_META, sessionErrorResult } from './handleSessions';
import { META, SUPPORTED_VERSIONS } from './modernDispatch';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The SDK's handler of 2026-07-28 requests over `backend`; legacy requests are refused (they never reach it). */
export function modernSdkHandler(backend: McpBackend): McpHttpHandler {
  const handlers = mcpHandlers(backend);
  const hint = { ttlMs: CACHE_TTL_MS, cacheScope: CACHE_SCOPE } as never;
  return createMcpHandler(
    () => {
      const server = new Server(SERVER_INFO, {
        capabilities: serverCapabilities(backend),
        supportedProtocolVersions: [...SUPPORTED_VERSIONS],
        cacheHints: { 'tools/list': hint, 'prompts/list': hint, 'resources/list': hint, 'resources/templates/list': hint, 'resources/read': hint, 'server/discover': hint } as never,
      });
      const anyParams = { params: z.record(z.string(), z.unknown()) };
      for (const h of handlers) {
        server.setRequestHandler(h.method as never, anyParams as never, (async (params: Record<string, unknown>, extra: { mcpReq: { signal: AbortSignal } }) => {
          // A tool call's state handle is the argument `session` (SEP-2567): taken out before the tool sees its arguments.
          const { params: p, handle } = takeHandle(h.method, params);
          const parsed = h.schema.safeParse({ method: h.method, params: p });
          if (!parsed.success) throw paramsError(h.method, parsed.error);
          try {
            const run = await backend.handles.run(handle, (sessionId) =>
              h.handle(parsed.data as { method: string; params?: Record<string, unknown> }, { auditSession: 'mcp-stateless', signal: extra.mcpReq.signal, sessionId, stateHandles: true }),
            );
            return run.handle ? withHandle(run.value, run.handle) : run.value;
          } catch (e) {
            // The session named cannot be used (not ours, expired, or others kept saving it first): a tool error naming the fix.
            if (e instanceof HandleSessionError) return sessionErrorResult(e);
            throw e;
          }
        }) as never);
      }
      // Ours lists the legacy versions too (they are served here through initialize); the SDK's lists only modern ones.
      // server/discover lists the legacy versions too (served here through initialize), and composes the
      // instructions only when asked (not on every request's instance); 2.4.0's lists only the modern versions
      // and installs its handler after this factory returns, so its builder is replaced (private, pinned to
      // 2.4.0; mcpProtocol's "serves 2026-07-28 statelessly over HTTP" test fails if it moves).
      (server as unknown as { _ondiscover(): unknown })._ondiscover = async () => ({ supportedVersions: SUPPORTED_VERSIONS, capabilities: serverCapabilities(backend), instructions: await backend.instructions() });
      return server;
    },
    { legacy: 'reject', responseMode: 'json' },
  );
}

/** A tool call's params without its `session` argument, and that argument (undefined when absent or not a tool call). */
function takeHandle(method: string, params: Record<string, unknown>): { params: Record<string, unknown>; handle?: unknown } {
  const args = params.arguments;
  if (method !== 'tools/call' || !isObject(args) || !(SESSION_ARG in args)) return { params };
  const { [SESSION_ARG]: handle, ...rest } = args;
  return { params: { ...params, arguments: rest }, handle };
}

/** A tool result that tells the model its session handle (last, in the text it reads) and the client (in `_meta`). */
function withHandle(result: Record<string, unknown>, handle: string): Record<string, unknown> {
  const content = Array.isArray(result.content) ? result.content : [];
  return {
    ...result,
    content: [...content, { type: 'text', text: `Session: ${handle}\nPass "${SESSION_ARG}": "${handle}" in your next tool call to this server to keep the skills loaded in this session.` }],
    _meta: { ...(isObject(result._meta) ? result._meta : {}), [SESSION_META]: handle },
  };
}

/** Serves one 2026-07-28 POST (its body already read, bounded and parsed by httpServer.ts) through the SDK handler. */
export async function serveModernSdk(handler: McpHttpHandler, req: http.IncomingMessage, res: http.ServerResponse, body: unknown): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
  const gone = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, { method: 'POST', headers, body: JSON.stringify(body), signal: gone.signal });
  const response = await handler.fetch(request, { parsedBody: body });
  if (res.headersSent || res.destroyed) return void (await response.body?.cancel().catch(() => undefined));
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) return void res.end();
  const stream = Readable.fromWeb(response.body as unknown as WebReadableStream<Uint8Array>);
  res.once('close', () => stream.destroy());
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}

/** stdio has no headers: one modern message answered by the SDK handler with the headers mirrored from its body. */
export async function answerModernSdk(handler: McpHttpHandler, msg: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
  const params = isObject(msg.params) ? msg.params : {};
  const meta = isObject(params._meta) ? params._meta : {};
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const version = meta[META.protocolVersion];
  if (typeof version === 'string') headers['mcp-protocol-version'] = version;
  if (typeof msg.method === 'string') headers['mcp-method'] = msg.method;
  const name = msg.method === 'resources/read' ? params.uri : msg.method === 'tools/call' || msg.method === 'prompts/get' ? params.name : undefined;
  if (typeof name === 'string') headers['mcp-name'] = /^[\x20-\x7e]*$/.test(name) ? name : `=?base64?${Buffer.from(name).toString('base64')}?=`;
  const response = await handler.fetch(new Request('http://stdio/mcp', { method: 'POST', headers, body: JSON.stringify(msg) }), { parsedBody: msg });
  const text = await response.text();
  return text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
}
