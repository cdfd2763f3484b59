// The 2026-07-28 revision ("modern" in its own words): no initialize handshake and no session. Every request
// carries its protocol version and client capabilities in `_meta`; on HTTP the version, the method and the
// name are mirrored into headers the server checks against the body. This file holds what runs in front of the
// SDK 2.4.0's own 2026-07-28 server (modernSdkEngine.ts: one long-lived SDK `Server`, which answers every request
// that passes these checks): the transport checks with our wording (basic/versioning, basic/transports/
// streamable-http "Server Validation"), `subscriptions/listen` (modernSubscriptions.ts) and the removed methods.
// Our own encoder of the answers is kept only for comparison with the SDK's (AGENT_SKILLS_MCP_MODERN_SERVER=ours:
// mcpModernSdk.test.ts holds the two answer alike, test/bench/sdkModernWire.ts measures both; README, "The SDK line").
// Transports call {@link dispatchModern} with one parsed message and send what it returns.
import { ProtocolErrorCode as ErrorCode } from '@modelcontextprotocol/server';
import type { McpBackend } from './mcpBackend';
import { CACHE_SCOPE, CACHE_TTL_MS, serverCapabilities, type McpHandler } from './mcpHandlers';
import { modernErrorCode } from './requestError';
import { isJsonObject } from './jsonObject';
import { SERVER_INFO } from './mcpSession';
import { parseListen, type ListenRequest } from './modernSubscriptions';
import { META, MODERN_VERSION, runModernHandler, SUPPORTED_VERSIONS, type ModernWork } from './modernRequest';
import { modernSdkEngine, type ModernSdkEngine } from './modernSdkEngine';

export { META, MODERN_VERSION, SUPPORTED_VERSIONS, takeHandle, withHandle } from './modernRequest';

/** Error codes the modern revision defines (its reserved range -32020…-32099). */
export const HEADER_MISMATCH = -32020;
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/** The HTTP headers the modern Streamable HTTP transport mirrors from the body (names lower-cased, as Node gives them). */
export interface MirroredHeaders {
  'mcp-protocol-version'?: string;
  'mcp-method'?: string;
  'mcp-name'?: string;
}

/**
 * What to send back: an HTTP status (stdio ignores it) and the JSON-RPC response, none for a notification; or,
 * for a valid `subscriptions/listen`, the stream to open (the transport opens it with openListen).
 */
export interface ModernAnswer {
  status: number;
  body?: Record<string, unknown>;
  listen?: ListenRequest;
}

type Message = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };

/** True when a message asks for the modern revision: `_meta` carries a protocol version, or it is `server/discover`. */
export function asksModern(msg: unknown): boolean {
  if (!isJsonObject(msg)) return false;
  if (msg.method === 'server/discover') return true;
  const meta = isJsonObject(msg.params) ? msg.params._meta : undefined;
  return isJsonObject(meta) && META.protocolVersion in meta;
}

/** The value of `Mcp-Name` (or `Mcp-Param-*`) as the client meant it: the Base64 sentinel form decoded. */
export function decodeHeaderValue(v: string): string | undefined {
  const m = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/.exec(v);
  if (!m) return v;
  const bytes = Buffer.from(m[1], 'base64');
  const text = bytes.toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? text : undefined;
}

const error = (status: number, id: unknown, code: number, message: string, data?: unknown): ModernAnswer => ({
  status,
  body: { jsonrpc: '2.0', id: id ?? null, error: { code, message, ...(data === undefined ? {} : { data }) } },
});

/** The body field `Mcp-Name` mirrors for a method, or undefined when the method has none. */
function mirroredName(method: string, params: Record<string, unknown>): unknown {
  if (method === 'tools/call' || method === 'prompts/get') return params.name;
  if (method === 'resources/read') return params.uri;
  return undefined;
}

/** What every modern answer is served from, built once per backend. */
export interface ModernServer extends ModernWork {
  /** The SDK's Server answering behind our checks (the default); undefined: our own encoder (the comparison). */
  sdk?: ModernSdkEngine;
  /** Ends the SDK's Server (a request still in it is answered first by its caller's abort). */
  close(): Promise<void>;
}

/**
 * A modern server over a backend and its handler table, answering through the SDK's own Server; `sdk: false`
 * answers with our own encoder instead, which only the comparison uses (mcpModernSdk.test.ts, the benches), and
 * the environment variable AGENT_SKILLS_MCP_MODERN_SERVER=ours chooses it for a whole `agent-skills mcp` process,
 * so the MCP tests, the conformance suite and test/bench/sdkModernWire.ts can run against it (README, "The SDK line").
 */
export function modernServer(backend: McpBackend, handlers: readonly McpHandler[], options: { sdk?: boolean } = {}): ModernServer {
  const work: ModernWork = { backend, handlers: new Map(handlers.map((h) => [h.method, h])) };
  if (!(options.sdk ?? process.env.AGENT_SKILLS_MCP_MODERN_SERVER !== 'ours')) return { ...work, close: async () => undefined };
  const sdk = modernSdkEngine(work);
  return { ...work, sdk, close: () => sdk.close() };
}

/**
 * Answers one modern message. `headers` is given on HTTP (the mirrored headers are then required and checked);
 * stdio passes undefined. `signal` ends the work when the client goes away (HTTP: the response closed).
 */
export async function dispatchModern(s: ModernServer, raw: unknown, headers: MirroredHeaders | undefined, signal?: AbortSignal): Promise<ModernAnswer> {
  if (!isJsonObject(raw) || raw.jsonrpc !== '2.0' || typeof (raw as Message).method !== 'string') {
    return error(400, isJsonObject(raw) ? raw.id : null, ErrorCode.InvalidRequest, 'Invalid request: the body must be one JSON-RPC 2.0 request object with a method (a batch array or a response is not accepted).');
  }
  const msg = raw as Message & { method: string };
  // A notification: nothing to answer (this revision defines none from client to server over HTTP).
  if (msg.id === undefined) return { status: 202 };
  if (typeof msg.id !== 'string' && typeof msg.id !== 'number') return error(400, null, ErrorCode.InvalidRequest, 'Invalid request: id must be a string or a number.');
  const id = msg.id;
  if (msg.params !== undefined && !isJsonObject(msg.params)) return error(400, id, ErrorCode.InvalidParams, `${msg.method}: params must be an object.`);
  const params = (msg.params ?? {}) as Record<string, unknown>;
  const meta = params._meta;
  const version = isJsonObject(meta) ? meta[META.protocolVersion] : undefined;
  if (!isJsonObject(meta) || typeof version !== 'string' || !isJsonObject(meta[META.clientCapabilities])) {
    return error(
      400,
      id,
      ErrorCode.InvalidParams,
      `${msg.method}: params._meta must carry '${META.protocolVersion}' (a version string) and '${META.clientCapabilities}' (an object) on every request of protocol ${MODERN_VERSION}; a client of an older revision starts with initialize instead.`,
    );
  }
  if (headers) {
    const h = headers['mcp-protocol-version'];
    if (h === undefined) return error(400, id, HEADER_MISMATCH, `Header mismatch: the MCP-Protocol-Version header is missing; send MCP-Protocol-Version: ${version} (the version in params._meta).`);
    if (h !== version) return error(400, id, HEADER_MISMATCH, `Header mismatch: MCP-Protocol-Version header '${h.slice(0, 40)}' does not match params._meta '${META.protocolVersion}' '${version.slice(0, 40)}'.`);
  }
  if (version !== MODERN_VERSION) {
    return error(400, id, UNSUPPORTED_PROTOCOL_VERSION, `Unsupported protocol version '${version.slice(0, 40)}': per-request _meta is served at ${MODERN_VERSION}; older revisions start with initialize.`, {
      supported: SUPPORTED_VERSIONS,
      requested: version,
    });
  }
  if (headers) {
    const m = headers['mcp-method'];
    if (m === undefined) return error(400, id, HEADER_MISMATCH, `Header mismatch: the Mcp-Method header is missing; send Mcp-Method: ${msg.method}.`);
    if (m !== msg.method) return error(400, id, HEADER_MISMATCH, `Header mismatch: Mcp-Method header '${m.slice(0, 100)}' does not match the body's method '${msg.method.slice(0, 100)}'.`);
    const bodyName = mirroredName(msg.method, params);
    if (bodyName !== undefined) {
      const n = headers['mcp-name'];
      if (n === undefined) return error(400, id, HEADER_MISMATCH, `Header mismatch: the Mcp-Name header is missing; ${msg.method} must mirror ${msg.method === 'resources/read' ? 'params.uri' : 'params.name'} in it.`);
      if (decodeHeaderValue(n) !== bodyName) return error(400, id, HEADER_MISMATCH, `Header mismatch: Mcp-Name header '${n.slice(0, 100)}' does not match the body's ${msg.method === 'resources/read' ? 'uri' : 'name'}.`);
    }
  }
  const serverMeta = { [META.serverInfo]: { name: SERVER_INFO.name, version: SERVER_INFO.version } };
  const complete = (result: Record<string, unknown>, cacheable: boolean): ModernAnswer => ({
    status: 200,
    body: {
      jsonrpc: '2.0',
      id,
      result: { ...result, resultType: 'complete', ...(cacheable ? { ttlMs: result.ttlMs ?? CACHE_TTL_MS, cacheScope: result.cacheScope ?? CACHE_SCOPE } : {}), _meta: { ...(isJsonObject(result._meta) ? result._meta : {}), ...serverMeta } },
    },
  });
  if (msg.method === 'server/discover') {
    if (s.sdk) return { status: 200, body: await s.sdk.answer({ id, method: msg.method, params }, signal) };
    return complete({ supportedVersions: SUPPORTED_VERSIONS, capabilities: serverCapabilities(s.backend), instructions: await s.backend.instructions() }, true);
  }
  if (msg.method === 'subscriptions/listen') {
    try {
      return { status: 200, listen: parseListen(id, params) };
    } catch (e) {
      return error(400, id, ErrorCode.InvalidParams, (e as Error).message);
    }
  }
  const handler = s.handlers.get(msg.method);
  if (!handler) {
    const removed = ['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe'].includes(msg.method);
    return error(404, id, ErrorCode.MethodNotFound, `Method not found: ${msg.method.slice(0, 100)}${removed ? ` is not part of protocol ${MODERN_VERSION}` : ' is not served here'}.`);
  }
  if (s.sdk) return { status: 200, body: await s.sdk.answer({ id, method: msg.method, params }, signal) };
  try {
    const answer = await runModernHandler(s, handler, params, meta[META.clientCapabilities], signal);
    // A question for the client (multi round-trip requests): sent as it is, the client retries with the answer.
    if (answer.resultType === 'input_required') return { status: 200, body: { jsonrpc: '2.0', id, result: { ...answer, _meta: serverMeta } } };
    return complete(answer, handler.cacheable);
  } catch (e) {
    const err = e as { code: number; message: string; data?: unknown };
    return error(200, id, modernErrorCode(err.code), err.message, err.data);
  }
}

