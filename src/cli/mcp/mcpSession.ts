// One legacy MCP session (the initialize handshake, 2025-11-25 and older): an SDK `Server` whose handlers are the
// shared table of mcpHandlers.ts, acting in the session's own runtime session, plus what only a session has:
// resource subscriptions and change notifications that follow the backend's watcher.
import { SdkError, SdkErrorCode, Server } from '@modelcontextprotocol/server';
import { clientCanBeAsked, readConsentAnswer, type ConsentChannel } from './scriptConsent';
import { z } from 'zod';
import { cliVersion } from '../version';
import { runtimeSessionId, type McpBackend } from './mcpBackend';
import { mcpHandlers, paramsError, serverCapabilities, type McpRequestContext } from './mcpHandlers';
import { invalidParams } from './requestError';
import { changeNotifications, type SkillsChange } from './changeNotifications';
import { HandleSessionError, sessionErrorResult } from './handleSessions';
import { MAX_SUBSCRIPTIONS } from '../../core/runtime/sessionStateStore';

/** The stateless revision, whose error codes the SDK's codec keeps. */
const MODERN_VERSION = '2026-07-28';

/** The server's identity, in `initialize` results and in every 2026-07-28 result's `_meta`. */
export const SERVER_INFO = { name: 'agent-skills', title: 'Agent Skills Runtime', version: cliVersion() };

/** A connected session: its SDK server and a disposer for its notifications. */
export interface McpSession {
  server: Server;
  /** The runtime session it acts in. */
  runtimeSessionId: string;
  dispose(): Promise<void>;
}

/**
 * Builds the SDK server of one MCP session; `mcpSessionId` names it in the runtime and the audit log. With a shared
 * state store its tool calls run in the store's copy of the session (any replica may serve the next one); `adopted`:
 * the session was initialized by another replica, so its state is already there.
 */
export async function createMcpSession(backend: McpBackend, mcpSessionId: string, adopted = false, clientElicits = false): Promise<McpSession> {
  const shared = backend.sharesSessions;
  if (shared && !adopted) await backend.handles.legacy.open(mcpSessionId, { elicitation: clientElicits });
  const sessionId = shared ? runtimeSessionId(mcpSessionId) : await backend.openSession(mcpSessionId);
  // A session that ends (client disconnected, DELETE, idle, server stopping) cancels its requests, so a script a
  // tool call started, and whatever that script left behind with setsid, dies with it (issue 22.6).
  const ending = new AbortController();
  const inFlight = new Set<Promise<unknown>>();
  const server = new Server(SERVER_INFO, { capabilities: serverCapabilities(backend), instructions: await backend.instructions() });
  keepLegacyErrorCodes(server);
  // Every method is registered with the table's own schema (one check, one message, in both eras): the SDK
  // hands the params over as they came and the table's schema decides.
  const anyParams = { params: z.record(z.string(), z.unknown()) };
  for (const h of mcpHandlers(backend)) {
    server.setRequestHandler(h.method, anyParams, (params, extra) => {
      const parsed = h.schema.safeParse({ method: h.method, params });
      if (!parsed.success) throw paramsError(h.method, parsed.error);
      const req = parsed.data as { method: string; params?: Record<string, unknown> };
      const signal = AbortSignal.any([extra.mcpReq.signal, ending.signal]);
      const consent = pushedConsent(adopted ? { elicits: () => backend.handles.legacy.elicits(mcpSessionId) } : { capabilities: () => server.getClientCapabilities() }, extra.mcpReq.send as unknown as SendRequest, signal);
      const ctx: McpRequestContext = { sessionId: async () => sessionId, auditSession: sessionId, signal, consent };
      // Shared: a tool call loads the session from the store, and saves it (compare and set) when done. While the
      // user is asked, the call lets the session go, so the session's other calls on this replica are not held.
      const answer =
        shared && h.method === 'tools/call'
          ? backend.handles.legacy.run(mcpSessionId, (stored, pause) => h.handle(req, { ...ctx, sessionId: stored, consent: { canAsk: consent.canAsk, ask: (q, b) => pause(() => consent.ask(q, b)) } })).catch((e: unknown) => {
              if (e instanceof HandleSessionError) return sessionErrorResult(e);
              throw e;
            })
          : Promise.resolve(h.handle(req, ctx));
      inFlight.add(answer);
      return answer.finally(() => inFlight.delete(answer)) as never;
    });
  }
  // Resource subscriptions: this process's own set, or with a shared store the session's stored ones, so the replica
  // holding the session's stream notifies of a subscription another replica took (and none after the session ends).
  const subscribed = new Set<string>();
  const uriParams = { params: z.object({ uri: z.string() }).passthrough() };
  server.setRequestHandler('resources/subscribe', uriParams, async ({ uri }) => {
    if (shared) return backend.handles.legacy.subscribe(mcpSessionId, uri, true).then(() => ({}));
    // Bounded: a client cannot grow the server's memory one subscription at a time.
    if (!subscribed.has(uri) && subscribed.size >= MAX_SUBSCRIPTIONS) throw invalidParams(`This session already has ${MAX_SUBSCRIPTIONS} subscriptions; unsubscribe from some first.`);
    subscribed.add(uri);
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', uriParams, async ({ uri }) => {
    if (shared) return backend.handles.legacy.subscribe(mcpSessionId, uri, false).then(() => ({}));
    subscribed.delete(uri);
    return {};
  });

  // Disk changes: the list changed when skills came or went; subscribers of a changed skill's files hear of each.
  const onChanged = (c: SkillsChange) => {
    // Only to a client that initialized: on stdio a 2026-07-28 client shares the channel and hears only its streams.
    if (!server.getClientVersion()) return;
    const send = async () => {
      const resourceSubscriptions = shared && c.skills.length ? await backend.handles.legacy.subscriptions(mcpSessionId) : subscribed;
      for (const n of changeNotifications(c, { resourcesListChanged: true, promptsListChanged: true, resourceSubscriptions })) await server.notification(n as never);
    };
    send().catch(() => undefined); // A client that went away needs no notification.
  };
  backend.events.on('changed', onChanged);
  return {
    server,
    runtimeSessionId: sessionId,
    async dispose() {
      backend.events.off('changed', onChanged);
      // Cancelled runs end once their processes are killed: wait, so no caller exits before that.
      ending.abort();
      await Promise.allSettled([...inFlight]);
      // A shared session outlives this process's transport (another replica may serve it): the client ends it with
      // DELETE (httpServer), or the store's time to live does.
      if (!shared) await backend.closeSession(mcpSessionId);
    },
  };
}

/** How long a 2025-11-25 client's user has to answer a script-run confirmation before the run is given up (ms). */
export const CONSENT_TIMEOUT_MS = 10 * 60_000;

type SendRequest = (r: { method: string; params: Record<string, unknown> }, o: { timeout: number; signal: AbortSignal }) => Promise<unknown>;

/**
 * Asking on 2025-11-25: `elicitation/create` sent to the client as a request related to the tool call (on HTTP it
 * goes out on the call's own SSE response, so such a session's transport answers in SSE: httpServer.ts), and the
 * call waits for the answer. A session another replica initialized cannot be asked here: the client would send its
 * answer to whichever replica the load balancer picks, so the run is refused saying what to do instead.
 */
function pushedConsent(client: { capabilities: () => unknown } | { elicits: () => Promise<boolean> }, send: SendRequest, signal: AbortSignal): ConsentChannel {
  return {
    canAsk: async () => ('elicits' in client ? client.elicits() : clientCanBeAsked(client.capabilities())),
    async ask(q) {
      if ('elicits' in client) {
        return {
          run: false,
          text: 'Not run: this session\'s client is asked before every script run, and this replica did not initialize the session, so the answer could reach another replica. Route a session\'s requests to the replica that initialized it (sticky sessions), or use protocol 2026-07-28, whose confirmation works on any replica.',
        };
      }
      let answer: unknown;
      try {
        answer = await send({ method: 'elicitation/create', params: { mode: 'form', ...q } }, { timeout: CONSENT_TIMEOUT_MS, signal });
      } catch (e) {
        if (signal.aborted) throw e;
        if (e instanceof SdkError && e.code === SdkErrorCode.RequestTimeout) return { run: false, text: `Not run: no answer to the confirmation within ${CONSENT_TIMEOUT_MS / 60_000} minutes. Ask the user before trying again.` };
        throw invalidParams(`The answer to the script-run confirmation is not usable: ${(e as Error).message.slice(0, 300)}. Nothing was run; call the tool again to be asked again.`);
      }
      return readConsentAnswer(answer);
    },
  };
}

/**
 * The SDK 2.x answers a thrown -32002 (resource not found) with -32602 in every era. 2025-11-25 and older keep
 * -32002 with `data.uri` (that revision's text and example; 2026-07-28 folded it into -32602, which
 * modernDispatch.ts answers), so a legacy session's error codes go out as thrown. The SDK keeps the hook private:
 * pinned to 2.4.0, and mcpProtocol's "answers a resource not found…" test fails if it moves.
 */
function keepLegacyErrorCodes(server: Server): void {
  const s = server as unknown as { _negotiatedWireCodec(): { era: string; encodeErrorCode(code: number): number } };
  const negotiated = s._negotiatedWireCodec.bind(server);
  s._negotiatedWireCodec = () => {
    const codec = negotiated();
    return codec.era === MODERN_VERSION ? codec : { ...codec, encodeErrorCode: (code: number) => code };
  };
}
