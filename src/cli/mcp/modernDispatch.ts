// The 2026-07-28 revision ("modern" in its own words): no initialize handshake and no session. Every request
// carries its protocol version and client capabilities in `_meta`; on HTTP the version, the method and the
// name are mirrored into headers. The SDK 2.4.0 answers every modern request (modernSdk.ts) except
// `subscriptions/listen`, whose streams stay ours (README, "The SDK line"); this file holds the era routing
// (which message asks for 2026-07-28) and the checks a listen request passes before its stream opens
// (basic/versioning, basic/transports/streamable-http "Server Validation"), in the order the SDK runs them.
import { ProtocolErrorCode as ErrorCode, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { parseListen, type ListenRequest } from './modernSubscriptions';

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

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** True when a message asks for the modern revision: `_meta` carries a protocol version, or it is `server/discover`. */
export function asksModern(msg: unknown): boolean {
  if (!isObject(msg)) return false;
  if (msg.method === 'server/discover') return true;
  const meta = isObject(msg.params) ? msg.params._meta : undefined;
  return isObject(meta) && META.protocolVersion in meta;
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

/** True when a message is a `subscriptions/listen` request (the one modern method answered here, not by the SDK). */
export function isListen(msg: unknown): boolean {
  return isObject(msg) && msg.method === 'subscriptions/listen';
}

/**
 * Checks one `subscriptions/listen` request and says which stream to open, or the error to answer. `headers`
 * is given on HTTP (the mirrored headers are then required and checked); stdio passes undefined.
 */
export function checkListen(raw: unknown, headers: MirroredHeaders | undefined): ModernAnswer {
  if (!isObject(raw) || raw.jsonrpc !== '2.0' || typeof (raw as Message).method !== 'string') {
    return error(400, isObject(raw) ? raw.id : null, ErrorCode.InvalidRequest, 'Invalid request: the body must be one JSON-RPC 2.0 request object with a method (a batch array or a response is not accepted).');
  }
  const msg = raw as Message & { method: string };
  // A notification: nothing to answer (this revision defines none from client to server over HTTP).
  if (msg.id === undefined) return { status: 202 };
  if (typeof msg.id !== 'string' && typeof msg.id !== 'number') return error(400, null, ErrorCode.InvalidRequest, 'Invalid request: id must be a string or a number.');
  const id = msg.id;
  if (msg.params !== undefined && !isObject(msg.params)) return error(400, id, ErrorCode.InvalidParams, `${msg.method}: params must be an object.`);
  const params = (msg.params ?? {}) as Record<string, unknown>;
  const meta = params._meta;
  const version = isObject(meta) ? meta[META.protocolVersion] : undefined;
  if (!isObject(meta) || typeof version !== 'string' || !isObject(meta[META.clientCapabilities])) {
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
  try {
    return { status: 200, listen: parseListen(id, params) };
  } catch (e) {
    return error(400, id, ErrorCode.InvalidParams, (e as Error).message);
  }
}
