// The server side of issue 26 point 1 (README, "The SDK line"): 2026-07-28 requests answered by the SDK 2.4.0's own
// modern server: ONE long-lived `Server` pinned to that revision by the SDK's `serveStdio` entry, whose wire is an
// in-process Transport (no stdin, no web Request or Response). It is what `agent-skills mcp` answers with on stdio
// and HTTP (modernServer in modernDispatch.ts; our own encoder only for comparison, AGENT_SKILLS_MCP_MODERN_SERVER=ours).
// What the SDK does per request here: the envelope check, the era codec's request and result checks, `resultType`,
// the cache fields and `serverInfo` in `_meta`, the `input_required` seam (the request's declared capabilities must
// cover the question), `server/discover`, the -32002 → -32602 fold. What stays ours, in front (modernDispatch.ts):
// the transport checks with our wording (headers -32020, version -32022, removed methods -32601/404),
// `subscriptions/listen`, and the work of each method (runModernHandler: the state handle, the params schema, the
// MRTR consent). Request ids are renumbered on the way in, since one instance serves many HTTP clients whose ids
// collide, and restored on the way out. Its cost over our encoder: README, "The SDK line" (test/bench/sdkModernWire.ts,
// test/bench/sdkModernCost.ts).
import { Server, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { CACHE_SCOPE, CACHE_TTL_MS, serverCapabilities, type McpHandler } from './mcpHandlers';
import { SERVER_INFO } from './mcpSession';
import { isJsonObject } from './jsonObject';
import { META, runModernHandler, SUPPORTED_VERSIONS, type ModernWork } from './modernRequest';

/**
 * The SDK's Server for the modern revision, with `server/discover` listing the legacy versions too (served here
 * through initialize) and composing the instructions when asked (skills change); 2.4.0 lists only the modern
 * versions and takes the instructions once, at construction. `_ondiscover` is private in 2.4.0 (pinned:
 * mcpProtocol's "serves 2026-07-28 statelessly" test fails if the legacy versions go missing).
 */
function modernSdkServer(modern: ModernWork): Server {
  const server = new Server(SERVER_INFO, { capabilities: serverCapabilities(modern.backend), supportedProtocolVersions: [...SUPPORTED_VERSIONS] });
  (server as unknown as { _ondiscover(): unknown })._ondiscover = async () => ({ supportedVersions: SUPPORTED_VERSIONS, capabilities: serverCapabilities(modern.backend), instructions: await modern.backend.instructions(), ttlMs: CACHE_TTL_MS, cacheScope: CACHE_SCOPE });
  return server;
}

interface Pending {
  id: string | number;
  /** The params as the client sent them (the SDK hands its handler a copy without the MRTR retry fields). */
  params: Record<string, unknown>;
  resolve(answer: Record<string, unknown>): void;
}

/** The in-process wire serveStdio reads from and writes to: answers go back to the request that waits for them. */
class InProcessWire implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  readonly pending = new Map<number, Pending>();
  async start(): Promise<void> {}
  async send(message: JSONRPCMessage): Promise<void> {
    const m = message as { id?: unknown };
    // Notifications (list changes) are not ours to route here: subscriptions/listen is served in front.
    if (typeof m.id !== 'number') return;
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    p.resolve({ ...(message as Record<string, unknown>), id: p.id });
  }
  async close(): Promise<void> {
    this.onclose?.();
  }
}

/** The SDK engine: `answer` takes one checked 2026-07-28 request and gives its JSON-RPC response. */
export interface ModernSdkEngine {
  answer(msg: { id: string | number; method: string; params: Record<string, unknown> }, signal?: AbortSignal): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** One long-lived SDK Server answering from the handler table of `modern` (the same one the legacy sessions use). */
export function modernSdkEngine(modern: ModernWork): ModernSdkEngine {
  const wire = new InProcessWire();
  // The params pass as they are (a Standard Schema that accepts anything): each handler checks them with its own
  // schema (runModernHandler), so both eras word a bad param the same; the SDK still checks tools/call (era codec).
  const anyParams = { params: { '~standard': { version: 1, vendor: 'agent-skills', validate: (value: unknown) => ({ value }) } } };
  const server = modernSdkServer(modern);
  const register = (h: McpHandler) =>
    server.setRequestHandler(h.method as never, anyParams as never, (async (params: Record<string, unknown>, ctx: { mcpReq: { id: unknown; signal: AbortSignal; envelope?: Record<string, unknown> } }) => {
      // The params as sent: the SDK lifts `requestState` and `inputResponses` out, and drops (without a word) an
      // answer that is not an object; our consent words each malformed retry as -32602 (scriptConsent.ts).
      const sent = wire.pending.get(ctx.mcpReq.id as number)?.params ?? params;
      const result = await runModernHandler(modern, h, sent, ctx.mcpReq.envelope?.[META.clientCapabilities], ctx.mcpReq.signal);
      if (!h.cacheable || result.resultType === 'input_required') return result;
      // Our cache hint on every cacheable result (the SDK's hints reach only the spec's methods).
      return { ttlMs: CACHE_TTL_MS, cacheScope: CACHE_SCOPE, ...result };
    }) as never);
  for (const h of modern.handlers.values()) register(h);
  // What the SDK reports out of band (a result it could not encode is answered -32603 "Internal error"): the reason, on stderr.
  const report = (e: Error) => void process.stderr.write(`agent-skills mcp: 2026-07-28 (SDK server): ${e.message}\n`);
  server.onerror = report;
  // The SDK's stdio entry owns the era: the first modern request pins this one instance to 2026-07-28 for good.
  const handle = serveStdio(() => server, { legacy: 'reject', transport: wire, onerror: report });
  let next = 1;
  return {
    answer(msg, signal) {
      const internal = next++;
      return new Promise((resolve) => {
        wire.pending.set(internal, { id: msg.id, params: msg.params, resolve });
        signal?.addEventListener(
          'abort',
          () => {
            if (!wire.pending.delete(internal)) return;
            wire.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: internal, _meta: isJsonObject(msg.params._meta) ? msg.params._meta : {} } } as JSONRPCMessage);
            resolve({ jsonrpc: '2.0', id: msg.id, error: { code: -32800, message: 'Request cancelled: the client went away.' } });
          },
          { once: true },
        );
        wire.onmessage?.({ jsonrpc: '2.0', id: internal, method: msg.method, params: msg.params } as JSONRPCMessage);
      });
    },
    async close() {
      await handle.close();
    },
  };
}
