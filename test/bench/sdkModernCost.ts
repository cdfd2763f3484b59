// The CPU one 2026-07-28 request costs in this process, by wiring of the server side (README, "The SDK line"):
// - ours: our own encoder (modernDispatch.ts without the SDK, kept for this comparison), the baseline;
// - the SDK 2.4.0's createMcpHandler serving the same handler table, as the reverted move (6c776bd) wired it (a
//   Server per request, the state handle taken out in its tools/call, stdio messages answered through a Request
//   with the headers mirrored from the body), and the same with the Servers kept in a pool and reused;
// - what ships: one long-lived SDK Server pinned to 2026-07-28 by the SDK's serveStdio over an in-process wire
//   (modernSdkEngine.ts, `modernServer(…)`'s default), behind our checks (dispatchModern).
// Same backend, same messages, rounds interleaved; CPU time (process.cpuUsage), so other load on the machine
// counts less than in wall time. Run: node --import tsx test/bench/sdkModernCost.ts [calls per round]
// (add --cpu-prof before --import to see where the SDK's time goes).
// Measured 2026-11-27 (shared 2-core machine, load average 17.6, noisy), 300 calls per round, median of 6 rounds,
// ms of CPU per request (delta over ours): load_skills ours 1.237, per-request Server +1.020, pooled +0.655,
// one Server in process +0.221; resources/read ours 0.079, +0.349, +0.327, +0.087; tools/list ours 0.025, +0.390,
// +0.409, +0.046.
import * as path from 'node:path';
import { createMcpHandler, Server, type McpHttpHandler } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { createMcpBackend, type McpBackend } from '../../src/cli/mcp/mcpBackend';
import { CACHE_SCOPE, CACHE_TTL_MS, mcpHandlers, paramsError, serverCapabilities } from '../../src/cli/mcp/mcpHandlers';
import { SERVER_INFO } from '../../src/cli/mcp/mcpSession';
import { HandleSessionError, sessionErrorResult } from '../../src/cli/mcp/handleSessions';
import { dispatchModern, META, modernServer, SUPPORTED_VERSIONS, takeHandle, withHandle } from '../../src/cli/mcp/modernDispatch';
import { makeTempDir } from '../support/tempDir';
import { MODERN_META, writeFixtureSkills } from '../cli/mcpSupport';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The SDK's 2026-07-28 handler over `backend` (as in 6c776bd); `pool` reuses a Server once its exchange closed. */
function sdkHandler(backend: McpBackend, pool: boolean): McpHttpHandler {
  const handlers = mcpHandlers(backend);
  const hint = { ttlMs: CACHE_TTL_MS, cacheScope: CACHE_SCOPE } as never;
  const anyParams = { params: z.record(z.string(), z.unknown()) };
  const idle: Server[] = [];
  return createMcpHandler(
    () => {
      const reused = pool ? idle.pop() : undefined;
      if (reused) return reused;
      const server = new Server(SERVER_INFO, {
        capabilities: serverCapabilities(backend),
        supportedProtocolVersions: [...SUPPORTED_VERSIONS],
        cacheHints: { 'tools/list': hint, 'prompts/list': hint, 'resources/list': hint, 'resources/templates/list': hint, 'resources/read': hint, 'server/discover': hint } as never,
      });
      for (const h of handlers) {
        server.setRequestHandler(h.method as never, anyParams as never, (async (params: Record<string, unknown>, extra: { mcpReq: { signal: AbortSignal } }) => {
          const { params: p, handle } = takeHandle(h.method, params);
          const parsed = h.schema.safeParse({ method: h.method, params: p });
          if (!parsed.success) throw paramsError(h.method, parsed.error);
          try {
            const run = await backend.handles.run(handle, (sessionId) => h.handle(parsed.data as { method: string; params?: Record<string, unknown> }, { auditSession: 'mcp-stateless', signal: extra.mcpReq.signal, sessionId, stateHandles: true }));
            return run.handle ? withHandle(run.value, run.handle) : run.value;
          } catch (e) {
            if (e instanceof HandleSessionError) return sessionErrorResult(e);
            throw e;
          }
        }) as never);
      }
      if (pool) {
        const base = server.onclose;
        server.onclose = () => {
          base?.();
          queueMicrotask(() => idle.push(server));
        };
      }
      return server;
    },
    { legacy: 'reject', responseMode: 'json' },
  );
}

/** One message answered by the SDK handler as stdio would: headers mirrored from the body, the answer parsed back. */
async function viaSdk(handler: McpHttpHandler, msg: Record<string, unknown>): Promise<Record<string, unknown>> {
  const params = isObject(msg.params) ? msg.params : {};
  const meta = isObject(params._meta) ? params._meta : {};
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': String(meta[META.protocolVersion]), 'mcp-method': String(msg.method) };
  const name = msg.method === 'resources/read' ? params.uri : msg.method === 'tools/call' ? params.name : undefined;
  if (typeof name === 'string') headers['mcp-name'] = name;
  const response = await handler.fetch(new Request('http://stdio/mcp', { method: 'POST', headers, body: JSON.stringify(msg) }), { parsedBody: msg });
  return JSON.parse(await response.text()) as Record<string, unknown>;
}

async function main(): Promise<void> {
  const calls = Number(process.argv[2] ?? 300);
  const tmp = makeTempDir('sdk-modern-cost-');
  const skills = path.join(tmp.dir, 'skills');
  writeFixtureSkills(skills);
  const backend = await createMcpBackend({ roots: [{ path: skills, scope: 'workspace' }], stateDir: path.join(tmp.dir, 'state'), surface: 'standard', allowScripts: false, readOnly: false, watch: false });
  const ours = modernServer(backend, mcpHandlers(backend), { sdk: false });
  const inProcess = modernServer(backend, mcpHandlers(backend), { sdk: true });
  const warn = console.warn;
  console.warn = () => undefined; // createMcpHandler warns that responseMode 'json' drops mid-call notifications (none here)
  const sdk = sdkHandler(backend, false);
  const pooled = sdkHandler(backend, true);
  console.warn = warn;
  const handles: Record<string, string | undefined> = {};
  let id = 1;
  const variants: Record<string, (m: Record<string, unknown>) => Promise<Record<string, unknown> | undefined>> = {
    ours: async (m) => (await dispatchModern(ours, m, undefined)).body as Record<string, unknown> | undefined,
    'SDK, a Server per request': (m) => viaSdk(sdk, m),
    'SDK, Servers pooled': (m) => viaSdk(pooled, m),
    'SDK, one Server in process': async (m) => (await dispatchModern(inProcess, m, undefined)).body as Record<string, unknown> | undefined,
  };
  const messages: Record<string, (v: string) => Record<string, unknown>> = {
    'tools/call load_skills (state handle)': (v) => ({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: 'load_skills', arguments: { names: ['alpha'], ...(handles[v] ? { session: handles[v] } : {}) }, _meta: MODERN_META } }),
    'resources/read': () => ({ jsonrpc: '2.0', id: id++, method: 'resources/read', params: { uri: 'skill://alpha/SKILL.md', _meta: MODERN_META } }),
    'tools/list': () => ({ jsonrpc: '2.0', id: id++, method: 'tools/list', params: { _meta: MODERN_META } }),
  };
  const cpu: Record<string, number[]> = {};
  for (let round = 0; round < 7; round++) {
    for (const [mName, make] of Object.entries(messages)) {
      for (const [vName, answer] of Object.entries(variants)) {
        const c0 = process.cpuUsage();
        for (let i = 0; i < calls; i++) {
          const a = (await answer(make(vName))) as { result?: { isError?: boolean; _meta?: Record<string, string> } } | undefined;
          if (!a?.result || a.result.isError) throw new Error(`${vName}, ${mName}: ${JSON.stringify(a).slice(0, 300)}`);
          handles[vName] ??= a.result._meta?.['io.github.agent-skills/session'];
        }
        const c = process.cpuUsage(c0);
        if (round > 0) (cpu[`${mName}|${vName}`] ??= []).push((c.user + c.system) / calls / 1000);
      }
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`CPU per 2026-07-28 request in one process, median of 6 rounds x ${calls} calls (ms):`);
  for (const mName of Object.keys(messages)) {
    const base = median(cpu[`${mName}|ours`]);
    const row = Object.keys(variants).map((v) => {
      const m = median(cpu[`${mName}|${v}`]);
      return `${v} ${m.toFixed(3)}${v === 'ours' ? '' : ` (+${(m - base).toFixed(3)})`}`;
    });
    console.log(`  ${mName}: ${row.join(', ')}`);
  }
  await sdk.close();
  await pooled.close();
  await inProcess.sdk?.close();
  await backend.close();
  tmp.cleanup();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
