// The work of one 2026-07-28 request once its envelope is checked, whoever dispatches it (modernDispatch.ts in
// front, the SDK's Server in modernSdkEngine.ts): the revision's constants, the state handle (SEP-2567, the tool
// argument `session`) taken out and put back, the script-run question asked through multi round-trip requests.
import { ProtocolErrorCode as ErrorCode, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import type { McpBackend } from './mcpBackend';
import { paramsError, type McpHandler } from './mcpHandlers';
import { invalidParams } from './requestError';
import { isJsonObject } from './jsonObject';
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

/** What a modern request is served from: the backend and its handler table (the legacy sessions' own). */
export interface ModernWork {
  backend: McpBackend;
  handlers: ReadonlyMap<string, McpHandler>;
}

/**
 * One 2026-07-28 request's work once its envelope is checked, shared by our dispatcher and the SDK's Server
 * (modernSdkEngine.ts): the state handle (SEP-2567) taken out of a tool call's arguments and put back into its
 * result, the params checked by the handler's own schema, the script-run question asked through MRTR. Returns
 * the result (complete, or `resultType: 'input_required'`); every failure is thrown as a JSON-RPC error
 * ({ code, message, data? }) with the legacy code (-32002 for a resource not found: each caller folds it).
 */
export async function runModernHandler(s: ModernWork, handler: McpHandler, params: Record<string, unknown>, capabilities: unknown, signal?: AbortSignal): Promise<Record<string, unknown>> {
  // A tool call's state handle is the argument `session` (SEP-2567): taken out before the tool sees its arguments.
  const { params: forHandler, handle } = takeHandle(handler.method, params);
  const parsed = handler.schema.safeParse({ method: handler.method, params: forHandler });
  if (!parsed.success) throw paramsError(handler.method, parsed.error);
  try {
    const consent = multiRoundTripConsent(s, capabilities, params);
    const run = await s.backend.handles.run(handle, (sessionId) => handler.handle(parsed.data as { method: string; params?: Record<string, unknown> }, { auditSession: 'mcp-stateless', signal, sessionId, stateHandles: true, consent }));
    if (run.value.resultType === 'input_required') return run.value;
    return run.handle ? withHandle(run.value, run.handle) : run.value;
  } catch (e) {
    // The session named cannot be used (not ours, expired, or others kept saving it first): a tool error naming the fix.
    if (e instanceof HandleSessionError) return sessionErrorResult(e);
    // The store failed: the message names it (kind and address) and what to check.
    if (e instanceof StateStoreError) throw Object.assign(new Error(e.message), { code: ErrorCode.InternalError });
    const err = e as { code?: unknown; message?: string; data?: unknown };
    if (typeof err.code === 'number' && Number.isSafeInteger(err.code)) throw Object.assign(new Error(err.message ?? 'Request failed.'), { code: err.code, ...(err.data === undefined ? {} : { data: err.data }) });
    process.stderr.write(`agent-skills mcp: ${handler.method} failed: ${(e as Error).stack ?? e}\n`);
    throw Object.assign(new Error(`${handler.method} failed inside the server; see its stderr.`), { code: ErrorCode.InternalError });
  }
}

/**
 * Asking before a script runs on this revision, which has no server-to-client requests: the first call is answered
 * with an `input_required` result carrying the elicitation and a signed `requestState` (requestState.ts); the
 * client's retry brings both back with the user's answer in `inputResponses`. A retry whose state is missing, too
 * old or without the answer is asked again (basic/patterns/mrtr, "Error Handling"); a state this server did not give
 * for this very call is refused.
 */
function multiRoundTripConsent(s: ModernWork, capabilities: unknown, params: Record<string, unknown>): ConsentChannel {
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
