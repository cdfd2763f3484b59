// The 2026-07-28 revision ("modern" in its own words): no initialize handshake and no session. Every request
// carries its protocol version and client capabilities in `_meta`; on HTTP the version, the method and the
// name are mirrored into headers the server checks against the body. The SDK 2.x `Server` serves this revision
// too, but has no place for the state handle and the guards we run first (README, "The SDK line"), so this file
// implements it against the specification text (basic/versioning,
// basic/transports/streamable-http "Server Validation", server/discover), serving from the same handler table as
// the legacy sessions. Transports call {@link dispatchModern} with one parsed message and send what it returns.
import { ProtocolErrorCode as ErrorCode, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import type { McpBackend } from './mcpBackend';
import { CACHE_SCOPE, CACHE_TTL_MS, paramsError, serverCapabilities, type McpHandler, type McpRequestContext } from './mcpHandlers';
import { invalidParams, modernErrorCode } from './requestError';
import { isJsonObject } from './jsonObject';
import { SERVER_INFO } from './mcpSession';
import { parseListen, type ListenRequest } from './modernSubscriptions';
import { HandleSessionError, SESSION_ARG, SESSION_META, sessionErrorResult } from './handleSessions';
import { StateStoreError } from '../../core/runtime/sessionStateStore';
import { clientCanBeAsked, CONSENT_KEY, readConsentAnswer, type ConsentChannel } from './scriptConsent';
import { REQUEST_STATE_TTL_MS, signRequestState, verifyRequestState } from './requestState';

/** The stateless revision this server speaks besides the legacy ones. */
export const MODERN_VERSION = '2026-07-28';
/** Every version served: the modern one per request, the legacy ones through initialize. */
export const SUPPORTED_VERSIONS: readonly string[] = [MODERN_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS];

/** Reserved `_meta` keys of the modern revision. */
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
} as const;

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

/** The shared part of every modern answer: what the server serves, built once per backend. */
export interface ModernServer {
  backend: McpBackend;
  handlers: ReadonlyMap<string, McpHandler>;
}

/** A modern server over a backend and its handler table. */
export function modernServer(backend: McpBackend, handlers: readonly McpHandler[]): ModernServer {
  return { backend, handlers: new Map(handlers.map((h) => [h.method, h])) };
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
  // A tool call's state handle is the argument `session` (SEP-2567): taken out before the tool sees its arguments.
  const { params: forHandler, handle } = takeHandle(msg.method, params);
  const parsed = handler.schema.safeParse({ method: msg.method, params: forHandler });
  if (!parsed.success) return error(200, id, ErrorCode.InvalidParams, paramsError(msg.method, parsed.error).message);
  try {
    const consent = multiRoundTripConsent(s, meta[META.clientCapabilities], params);
    const run = await s.backend.handles.run(handle, (sessionId) => handler.handle(parsed.data as { method: string; params?: Record<string, unknown> }, { auditSession: 'mcp-stateless', signal, sessionId, stateHandles: true, consent }));
    // A question for the client (multi round-trip requests): sent as it is, the client retries with the answer.
    if (run.value.resultType === 'input_required') return { status: 200, body: { jsonrpc: '2.0', id, result: { ...run.value, _meta: serverMeta } } };
    return complete(run.handle ? withHandle(run.value, run.handle) : run.value, handler.cacheable);
  } catch (e) {
    // The session named cannot be used (not ours, expired, or others kept saving it first): a tool error naming the fix.
    if (e instanceof HandleSessionError) return complete(sessionErrorResult(e), false);
    // The store failed: the message names it (kind and address) and what to check.
    if (e instanceof StateStoreError) return error(200, id, ErrorCode.InternalError, e.message);
    const err = e as { code?: unknown; message?: string; data?: unknown };
    if (typeof err.code === 'number' && Number.isSafeInteger(err.code)) return error(200, id, modernErrorCode(err.code), err.message ?? 'Request failed.', err.data);
    process.stderr.write(`agent-skills mcp: ${msg.method} failed: ${(e as Error).stack ?? e}\n`);
    return error(200, id, ErrorCode.InternalError, `${msg.method} failed inside the server; see its stderr.`);
  }
}

/**
 * Asking before a script runs on this revision, which has no server-to-client requests: the first call is answered
 * with an `input_required` result carrying the elicitation and a signed `requestState` (requestState.ts); the
 * client's retry brings both back with the user's answer in `inputResponses`. A retry whose state is missing, too
 * old or without the answer is asked again (basic/patterns/mrtr, "Error Handling"); a state this server did not give
 * for this very call is refused.
 */
function multiRoundTripConsent(s: ModernServer, capabilities: unknown, params: Record<string, unknown>): ConsentChannel {
  return {
    canAsk: async () => clientCanBeAsked(capabilities),
    async ask(q, binding) {
      const key = await s.backend.handles.store.signingKey();
      const responses = params.inputResponses;
      if (responses !== undefined && !isJsonObject(responses)) throw invalidParams('inputResponses must be an object keyed by the inputRequests of the earlier answer; nothing was run.');
      const state = params.requestState === undefined ? undefined : verifyRequestState(key, params.requestState, binding);
      if (state?.verdict === 'valid' && responses && CONSENT_KEY in responses) {
        const answer = readConsentAnswer(responses[CONSENT_KEY]);
        // One yes runs once: a replayed retry (same state, same answer) is asked again, on whichever replica it lands.
        if (!('run' in answer && answer.run) || (await s.backend.handles.store.claimOnce(state.once, REQUEST_STATE_TTL_MS))) return answer;
      }
      return {
        inputRequired: {
          resultType: 'input_required',
          inputRequests: { [CONSENT_KEY]: { method: 'elicitation/create', params: { mode: 'form', ...q } } },
          requestState: signRequestState(key, binding),
        },
      };
    },
  };
}

/** A tool call's params without its `session` argument, and that argument (undefined when absent or not a tool call). */
export function takeHandle(method: string, params: Record<string, unknown>): { params: Record<string, unknown>; handle?: unknown } {
  const args = params.arguments;
  if (method !== 'tools/call' || !isJsonObject(args) || !(SESSION_ARG in args)) return { params };
  const { [SESSION_ARG]: handle, ...rest } = args;
  return { params: { ...params, arguments: rest }, handle };
}

/** A tool result that tells the model its session handle (last, in the text it reads) and the client (in `_meta`). */
export function withHandle(result: Record<string, unknown>, handle: string): Record<string, unknown> {
  const content = Array.isArray(result.content) ? result.content : [];
  return {
    ...result,
    content: [...content, { type: 'text', text: `Session: ${handle}\nPass "${SESSION_ARG}": "${handle}" in your next tool call to this server to keep the skills loaded in this session.` }],
    _meta: { ...(isJsonObject(result._meta) ? result._meta : {}), [SESSION_META]: handle },
  };
}
