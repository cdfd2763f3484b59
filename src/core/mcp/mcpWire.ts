// How our skills client talks to one MCP server, in either era. The SDK 2.x client negotiates it
// (versionNegotiation 'auto', basic/versioning "Backward Compatibility with Initialization-Based Versions",
// 2026-07-28): it probes with `server/discover` (per-request `_meta`; on HTTP the MCP-Protocol-Version, Mcp-Method
// and Mcp-Name headers), stays on 2026-07-28 when the server answers it, and falls back to the `initialize`
// handshake on the same connection otherwise (on stdio also when the probe gets no answer in time: the SDK knows
// the stdio binding by the transport's `pid` and `stderr`, which BoundedStdioTransport has).
import { Client, type RequestOptions, type StandardSchemaV1, type Transport } from '@modelcontextprotocol/client';

const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';
const CLIENT_INFO = { name: 'agent-skills', version: '0' };

/** One connection to a server, whichever era it speaks. */
export interface McpWire {
  readonly era: 'modern' | 'legacy';
  /** What the server declared (DiscoverResult's or InitializeResult's capabilities). */
  readonly capabilities: Record<string, unknown> | undefined;
  request<T>(method: string, params: Record<string, unknown>, schema: StandardSchemaV1<unknown, T>, o: RequestOptions): Promise<T>;
  close(): Promise<void>;
}

/** The modern revision a server that proved modern is held to when reconnected (`connectWire`'s `modernOnly`). */
export const MODERN_REVISION = '2026-07-28';

/**
 * Connects over `transport` in the server's era. The probe waits `probeMs` (a modern server still starting must
 * not be taken for a legacy one: on stdio a probe that times out means legacy); initialize waits `o.timeout`.
 * `modernOnly`: no fallback to `initialize` (for a server already known to be modern).
 */
export async function connectWire(transport: Transport, o: RequestOptions, probeMs: number, modernOnly = false): Promise<McpWire> {
  const client = new Client(CLIENT_INFO, {
    capabilities: { extensions: { [SKILLS_EXTENSION]: {} } },
    versionNegotiation: { mode: modernOnly ? { pin: MODERN_REVISION } : 'auto', probe: { timeoutMs: probeMs } },
  });
  await client.connect(transport, o);
  return {
    era: client.getProtocolEra() === 'modern' ? 'modern' : 'legacy',
    capabilities: client.getServerCapabilities() as Record<string, unknown> | undefined,
    request: (method, params, schema, ro) => client.request({ method, params }, schema, ro) as Promise<never>,
    close: () => client.close(),
  };
}
