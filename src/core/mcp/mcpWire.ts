// How our skills client talks to one MCP server, in either era (basic/versioning "Backward Compatibility with
// Initialization-Based Versions", 2026-07-28): it first asks the modern way (`server/discover` with per-request
// `_meta`; on HTTP with the MCP-Protocol-Version / Mcp-Method headers). A DiscoverResult, or a recognized modern
// error, means a modern server: every later request is one stateless message of its own. Anything else (on HTTP a
// 4xx without a modern error body; on stdio any other error or no answer within the probe's time) means a legacy
// server, and the client falls back to the `initialize` handshake through the SDK on the same connection.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';

/** The stateless revision. */
export const MODERN_VERSION = '2026-07-28';
/** Errors only a modern server gives (header mismatch, unsupported protocol version): the server is modern. */
const MODERN_ERRORS = new Set([-32020, -32022]);
const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';
const CLIENT_INFO = { name: 'agent-skills', version: '0' };

/** One connection to a server, whichever era it speaks. */
export interface McpWire {
  readonly era: 'modern' | 'legacy';
  /** What the server declared (DiscoverResult's or InitializeResult's capabilities). */
  readonly capabilities: Record<string, unknown> | undefined;
  request<T>(method: string, params: Record<string, unknown>, schema: z.ZodType<T>, o: RequestOptions): Promise<T>;
  close(): Promise<void>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `_meta` every modern request carries. */
function modernMeta(): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
    'io.modelcontextprotocol/clientCapabilities': { extensions: { [SKILLS_EXTENSION]: {} } },
    'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
  };
}

/** A header value as the transport wants it: printable ASCII as is, anything else in the Base64 sentinel form. */
function headerValue(v: string): string {
  return /^[\x20-\x7e]*$/.test(v) && v.trim() === v ? v : `=?base64?${Buffer.from(v, 'utf8').toString('base64')}?=`;
}

/** The answer to request `id` in a response body (JSON, or server-sent events carrying JSON-RPC messages). */
function answerIn(text: string, sse: boolean, id: number): Record<string, unknown> | undefined {
  const messages: unknown[] = [];
  if (!sse) messages.push(JSON.parse(text));
  else {
    for (const event of text.split(/\r?\n\r?\n|\r\r/)) {
      const data = event
        .split(/\r?\n|\r/)
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).replace(/^ /, ''))
        .join('\n');
      if (data) messages.push(JSON.parse(data));
    }
  }
  return messages.find((m): m is Record<string, unknown> => isObject(m) && m.id === id);
}

/** A JSON-RPC error answer as the SDK's error type (so callers treat both eras alike). */
function errorOf(answer: Record<string, unknown>): McpError | undefined {
  const e = answer.error;
  if (!isObject(e)) return undefined;
  return new McpError(typeof e.code === 'number' ? e.code : ErrorCode.InternalError, typeof e.message === 'string' ? e.message.slice(0, 500) : 'error', e.data);
}

type Sender = (id: number, method: string, body: Record<string, unknown>, o: RequestOptions) => Promise<{ status: number; answer: Record<string, unknown> | undefined }>;

/** A modern wire over a sender; `capabilities` from the DiscoverResult. */
function modernWire(send: Sender, capabilities: Record<string, unknown> | undefined, close: () => Promise<void>, firstId: number): McpWire {
  let next = firstId;
  return {
    era: 'modern',
    capabilities,
    async request(method, params, schema, o) {
      const id = next++;
      const { answer } = await send(id, method, { jsonrpc: '2.0', id, method, params: { ...params, _meta: modernMeta() } }, o);
      if (!answer) throw new McpError(ErrorCode.InternalError, `no answer to ${method}`);
      const err = errorOf(answer);
      if (err) throw err;
      const parsed = schema.safeParse(answer.result);
      if (!parsed.success) throw new McpError(ErrorCode.InvalidParams, `${method}: the result does not fit its schema: ${parsed.error.issues[0]?.message ?? ''} at ${parsed.error.issues[0]?.path.join('.') ?? ''}`);
      return parsed.data;
    },
    close,
  };
}

/** The result of probing with `server/discover`: modern (with its capabilities), or legacy. */
type Probe = { era: 'modern'; capabilities: Record<string, unknown> | undefined } | { era: 'legacy' };

function probeOutcome(answer: Record<string, unknown> | undefined): Probe | undefined {
  if (!answer) return undefined;
  const result = answer.result;
  if (isObject(result) && Array.isArray(result.supportedVersions)) {
    if (result.supportedVersions.includes(MODERN_VERSION)) return { era: 'modern', capabilities: isObject(result.capabilities) ? result.capabilities : undefined };
    return { era: 'legacy' };
  }
  const e = isObject(answer.error) ? answer.error : undefined;
  if (e && typeof e.code === 'number' && MODERN_ERRORS.has(e.code)) {
    // A modern server that does not serve this revision: fall back when it lists a legacy one, else it is no use.
    const supported = isObject(e.data) && Array.isArray(e.data.supported) ? (e.data.supported as unknown[]) : [];
    if (e.code === -32022 && supported.some((v) => typeof v === 'string' && v < MODERN_VERSION)) return { era: 'legacy' };
    throw new McpError(e.code, `the server answered server/discover with a modern error: ${String(e.message).slice(0, 300)}`);
  }
  return { era: 'legacy' };
}

/** Over Streamable HTTP: modern if the first modern request says so; else the SDK's legacy transport on the same URL. */
export async function connectHttp(url: URL, headers: Record<string, string>, fetchFn: FetchLike, legacyTransport: () => Transport, o: RequestOptions): Promise<McpWire> {
  const send: Sender = async (_id, method, body, ro) => {
    const params = (body.params ?? {}) as Record<string, unknown>;
    const name = method === 'resources/read' ? params.uri : method === 'tools/call' || method === 'prompts/get' ? params.name : undefined;
    const signal = AbortSignal.any([...(ro.signal ? [ro.signal] : []), ...(ro.timeout ? [AbortSignal.timeout(ro.timeout)] : [])]);
    let res: Response;
    let text: string;
    try {
      res = await fetchFn(url, {
        method: 'POST',
        signal,
        headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': method, ...(typeof name === 'string' ? { 'mcp-name': headerValue(name) } : {}) },
        body: JSON.stringify(body),
      });
      text = await res.text();
    } catch (e) {
      if (signal.aborted) throw new McpError(ErrorCode.RequestTimeout, `${method} timed out`);
      throw e;
    }
    let answer: Record<string, unknown> | undefined;
    try {
      answer = text ? answerIn(text, /^\s*text\/event-stream/i.test(res.headers.get('content-type') ?? ''), body.id as number) : undefined;
    } catch {
      answer = undefined;
    }
    return { status: res.status, answer };
  };
  const { status, answer } = await send(0, 'server/discover', { jsonrpc: '2.0', id: 0, method: 'server/discover', params: { _meta: modernMeta() } }, o);
  // A 2xx or 4xx with a recognized answer decides; any other 4xx (no modern error body) is a legacy server.
  const probe = status < 500 ? (probeOutcome(answer) ?? { era: 'legacy' as const }) : undefined;
  if (!probe) throw new Error(`server/discover failed with HTTP ${status}`);
  if (probe.era === 'modern') return modernWire(send, probe.capabilities, async () => undefined, 1);
  return legacyWire(legacyTransport(), o);
}

/** Over stdio: probe with `server/discover`; any answer that is not modern, or none in time, falls back on the same process. */
export async function connectStdio(transport: Transport, o: RequestOptions): Promise<McpWire> {
  const waiting = new Map<number, (m: Record<string, unknown>) => void>();
  transport.onmessage = (m: JSONRPCMessage) => {
    const id = (m as { id?: unknown }).id;
    if (typeof id === 'number' && ('result' in m || 'error' in m)) waiting.get(id)?.(m as unknown as Record<string, unknown>);
  };
  let closed: (() => void) | undefined;
  const gone = new Promise<void>((resolve) => (closed = resolve));
  transport.onclose = () => closed?.();
  await transport.start();
  const send: Sender = async (id, method, body, ro) => {
    const answered = new Promise<Record<string, unknown>>((resolve) => waiting.set(id, resolve));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new McpError(ErrorCode.RequestTimeout, `${method} timed out`)), ro.timeout ?? 60_000);
    });
    const closedEarly = gone.then(() => {
      throw new McpError(ErrorCode.ConnectionClosed, 'Connection closed');
    });
    try {
      await transport.send(body as unknown as JSONRPCMessage);
      return { status: 200, answer: await Promise.race([answered, timeout, closedEarly]) };
    } finally {
      clearTimeout(timer);
      waiting.delete(id);
    }
  };
  let probe: Probe;
  try {
    const { answer } = await send(-1, 'server/discover', { jsonrpc: '2.0', id: -1, method: 'server/discover', params: { _meta: modernMeta() } }, o);
    probe = probeOutcome(answer) ?? { era: 'legacy' };
  } catch (e) {
    if (e instanceof McpError && e.code === ErrorCode.ConnectionClosed) throw e;
    if (e instanceof McpError && MODERN_ERRORS.has(e.code)) throw e;
    probe = { era: 'legacy' }; // no answer in time: a legacy server that ignores unknown methods
  }
  if (probe.era === 'modern') return modernWire(send, probe.capabilities, () => transport.close(), 1);
  transport.onmessage = undefined;
  transport.onclose = undefined;
  // The SDK starts the transport it connects; this one already runs, so it is handed over as started.
  return legacyWire(startedTransport(transport), o);
}

/** The `initialize` handshake through the SDK client. */
async function legacyWire(transport: Transport, o: RequestOptions): Promise<McpWire> {
  const client = new Client(CLIENT_INFO);
  await client.connect(transport, o);
  return {
    era: 'legacy',
    capabilities: client.getServerCapabilities() as Record<string, unknown> | undefined,
    request: (method, params, schema, ro) => client.request({ method, params }, schema as never, ro) as never,
    close: () => client.close(),
  };
}

/** A transport already started, whose start() is then a no-op (the other members pass through). */
function startedTransport(t: Transport): Transport {
  return {
    start: async () => undefined,
    send: (m, opts) => t.send(m, opts),
    close: () => t.close(),
    get onclose() {
      return t.onclose;
    },
    set onclose(f) {
      t.onclose = f;
    },
    get onerror() {
      return t.onerror;
    },
    set onerror(f) {
      t.onerror = f;
    },
    get onmessage() {
      return t.onmessage;
    },
    set onmessage(f) {
      t.onmessage = f;
    },
  };
}
