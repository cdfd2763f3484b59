// The requests an `agent-skills mcp` server answers, as one table: each entry is a method, the schema its
// request is checked with, and a handler. Both protocol eras serve from this table: a 2025-11-25 session
// registers every entry on its SDK `Server` (mcpSession.ts); a 2026-07-28 request is dispatched to the same
// entry by modernDispatch.ts. Nothing here knows which era asked: where the revisions word an answer differently
// (the code of a resource not found) the modern dispatcher translates it.
import type { ServerCapabilities } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { toolAuditEntries } from '../../core/tools/toolAudit';
import type { McpBackend } from './mcpBackend';
import { invalidParams } from './requestError';
import { SKILLS_EXTENSION_ID } from './skillResources';
import { getSkillPrompt, skillPrompts } from './skillPrompts';
import { callMcpTool, mcpTools } from './toolAdapter';
import { SESSION_ARG, SESSION_ARG_SCHEMA } from './handleSessions';
import { asksBeforeRuns, confirmRun, type ConsentChannel } from './scriptConsent';
import { bindingOf, stableJson } from './requestState';
import { RUNTIME_TOOLS } from '../../core/tools/toolNames';

// The params each handler reads, checked the same way in both eras (a method's other params pass through).
const request = <P extends z.ZodTypeAny>(method: string, params: P) => z.object({ method: z.literal(method), params });
const cursorParams = z.object({ cursor: z.string().optional() }).passthrough().optional();
const ListRequest = (method: string) => request(method, cursorParams);
const CallToolRequest = request('tools/call', z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()).optional() }).passthrough());
const ReadResourceRequest = request('resources/read', z.object({ uri: z.string() }).passthrough());
const GetPromptRequest = request('prompts/get', z.object({ name: z.string(), arguments: z.record(z.string(), z.string()).optional() }).passthrough());
const SkillsListRequest = z.object({ method: z.literal('skills/list'), params: z.object({ cursor: z.string().optional() }).passthrough().optional() });
const SkillsGetRequest = z.object({ method: z.literal('skills/get'), params: z.object({ uri: z.string() }).passthrough() });
const DirectoryReadRequest = z.object({ method: z.literal('resources/directory/read'), params: z.object({ uri: z.string(), cursor: z.string().optional() }).passthrough() });

/** What a handler knows about the request besides its params. */
export interface McpRequestContext {
  /** The runtime session the request acts in (a legacy MCP session's own; on 2026-07-28 the state handle's, opened on first use). */
  sessionId(): Promise<string>;
  /** The session named in audit lines of requests that are not tool calls (no session is opened for them). */
  auditSession: string;
  signal?: AbortSignal;
  /** 2026-07-28: tools take a state handle as the argument `session` (handleSessions.ts), so tools/list shows it. */
  stateHandles?: boolean;
  /** How this request's client is asked before a script runs (scriptConsent.ts); undefined: it cannot be. */
  consent?: ConsentChannel;
}

/** One method the server answers. */
export interface McpHandler {
  method: string;
  /** Checks the whole request ({ method, params }); a failure is -32602. */
  schema: z.ZodType<{ method: string; params?: unknown }>;
  /** True when the result is a `CacheableResult` on 2026-07-28 (it carries `ttlMs` and `cacheScope`). */
  cacheable: boolean;
  handle(request: { method: string; params?: Record<string, unknown> }, ctx: McpRequestContext): Promise<Record<string, unknown>>;
}

/** Freshness hint on cacheable results: the watcher announces changes sooner to clients that listen. */
export const CACHE_TTL_MS = 30_000;
/** `private`: skills may be a user's own, so no shared cache (proxy, gateway) should keep them. */
export const CACHE_SCOPE = 'private';

/**
 * The capabilities a legacy session (initialize) and `server/discover` declare: change notifications reach a
 * legacy session directly and a 2026-07-28 client through `subscriptions/listen`.
 */
export function serverCapabilities(backend: McpBackend): ServerCapabilities {
  return {
    // Without tools (--no-tools) the capability is not declared at all, so a client lists none.
    ...(backend.tools === false ? {} : { tools: { listChanged: false } }),
    resources: { subscribe: true, listChanged: true },
    prompts: { listChanged: true },
    extensions: { [SKILLS_EXTENSION_ID]: { directoryRead: true } },
  } as ServerCapabilities;
}

const skillOf = (uri: unknown) => (typeof uri === 'string' ? /^skill:\/\/([^/]+)/.exec(uri)?.[1] : undefined);

/** The table of one server. `auditSession` names the runtime session in audit lines of requests that are not tool calls. */
export function mcpHandlers(backend: McpBackend): McpHandler[] {
  // MCP requests that are not tool calls of the core (reads, skills/*, prompts, refusals) through the one audit builder.
  const audit = (session: string, action: string, args: unknown, started: number, outcome: string, skill?: string) => {
    const durationMs = performance.now() - started;
    for (const e of toolAuditEntries({ started: new Date(Date.now() - durationMs), durationMs, session, action: `mcp:${action}`, input: args, outcome, skills: skill ? [{ name: skill }] : [] })) backend.runtime.audit?.append(e);
  };
  // Wraps a non-tool handler so its outcome (ok, or the error code) is audited like a tool call.
  const audited = async <T>(ctx: McpRequestContext, action: string, args: unknown, skill: string | undefined, fn: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    const session = ctx.auditSession;
    return fn().then(
      (r) => {
        audit(session, action, args, t0, 'ok', skill);
        return r;
      },
      (e: unknown) => {
        audit(session, action, args, t0, `error:${typeof (e as { code?: unknown }).code === 'number' ? (e as { code: number }).code : 'internal'}`, skill);
        throw e;
      },
    );
  };
  const p = (r: { params?: Record<string, unknown> }) => r.params ?? {};
  const table: McpHandler[] = [];
  if (backend.tools !== false) {
    table.push(
      {
        method: 'tools/list',
        schema: ListRequest('tools/list'),
        cacheable: true,
        handle: async (_req, ctx) => ({
          tools: mcpTools(backend).map((t) => ({ name: t.name, title: t.title, description: t.description, inputSchema: (ctx.stateHandles && t.descriptor.usesSession ? withSessionArg(t.inputSchema) : t.inputSchema) as { type: 'object' }, annotations: { readOnlyHint: !t.sideEffects, openWorldHint: false } })),
        }),
      },
      {
        method: 'tools/call',
        schema: CallToolRequest,
        cacheable: false,
        handle: async (req, ctx) => {
          const { name, arguments: args } = p(req) as { name: string; arguments?: Record<string, unknown> };
          const t0 = performance.now();
          // A session only for a tool that reads or changes session state (its descriptor says): on 2026-07-28 a
          // first call of list_skills or find_skills mints no handle and stores nothing.
          const sessionId = mcpTools(backend).find((t) => t.name === name)?.descriptor.usesSession ? await ctx.sessionId() : ctx.auditSession;
          // A script run asks the user first where it can (--confirm-scripts); a run not confirmed is a tool result.
          // A run the runtime refuses anyway (bad arguments, no such loaded skill, a script not in the skill) is not
          // asked about: its check (the call's own decision, made without running) says so, and the call returns its error.
          if (name === RUNTIME_TOOLS.run_script.name && asksBeforeRuns(backend)) {
            const checked = await backend.runtime.checkRun(args ?? {}, { sessionId, signal: ctx.signal });
            const skill = checked.ok ? checked.result.skill : undefined;
            const plugin = checked.ok ? checked.result.plugin : undefined;
            const outcome = await confirmRun({ mode: backend.confirmScripts, sandbox: backend.sandbox, channel: ctx.consent, input: args ?? {}, skill, ...(plugin ? { plugin } : {}), binding: bindingOf('tools/call', name, sessionId, stableJson(args ?? {}), backend.principal) });
            if ('inputRequired' in outcome) return outcome.inputRequired;
            if (!outcome.run) {
              audit(sessionId, `tools/call ${name}`, args ?? {}, t0, 'not_confirmed');
              return { content: [{ type: 'text', text: outcome.text }], isError: true };
            }
            // The session's other calls go on while the user is asked: a yes is for the skill the question named, so
            // a run that would now pick another (its skill unloaded and another with that script loaded) is not made.
            const now = skill === undefined ? undefined : await backend.runtime.checkRun(args ?? {}, { sessionId, signal: ctx.signal });
            if (now?.ok && now.result.skill !== skill) {
              audit(sessionId, `tools/call ${name}`, args ?? {}, t0, 'not_confirmed');
              return { content: [{ type: 'text', text: `Not run: the user was asked about skill ${JSON.stringify(skill)}, but while the question waited the session changed and this call would now run skill ${JSON.stringify(now.result.skill)}. Nothing was run; call the tool again (name the skill with "skill") to be asked about what would run now.` }], isError: true };
            }
          }
          let r;
          try {
            r = await callMcpTool(backend, name, args ?? {}, { sessionId, signal: ctx.signal }, backend.content);
          } catch (e) {
            // An unknown tool (or one this server does not offer) is a protocol error, audited here.
            audit(sessionId, `tools/call ${name}`, args ?? {}, t0, `error:${(e as { code?: number }).code ?? 'internal'}`);
            throw e;
          }
          return { content: [{ type: 'text', text: r.text }], isError: r.isError };
        },
      },
    );
  }
  table.push(
    {
      method: 'resources/list',
      schema: ListRequest('resources/list'),
      cacheable: true,
      handle: (req, ctx) =>
        audited(ctx, 'resources/list', {}, undefined, async () => {
          const page = await backend.resources.listResources(p(req).cursor);
          return { resources: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
        }),
    },
    {
      method: 'resources/templates/list',
      schema: ListRequest('resources/templates/list'),
      cacheable: true,
      handle: async () => ({
        resourceTemplates: [{ uriTemplate: 'skill://{skill}/{+path}', name: 'skill-file', description: 'A file of a served skill; read skill://<name>/SKILL.md first.', mimeType: 'text/markdown' }],
      }),
    },
    {
      method: 'resources/read',
      schema: ReadResourceRequest,
      cacheable: true,
      handle: (req, ctx) => {
        const uri = p(req).uri as string;
        return audited(ctx, 'resources/read', { uri }, skillOf(uri), async () => ({ contents: [await backend.resources.read(uri)] }));
      },
    },
    {
      method: 'skills/list',
      schema: SkillsListRequest,
      cacheable: true,
      handle: (req, ctx) =>
        audited(ctx, 'skills/list', {}, undefined, async () => {
          const page = await backend.resources.listSkills(p(req).cursor);
          // ttlMs and cacheScope are required on this result in every era (the extension's ListSkillsResult).
          return { skills: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}), ttlMs: CACHE_TTL_MS, cacheScope: CACHE_SCOPE };
        }),
    },
    {
      method: 'skills/get',
      schema: SkillsGetRequest,
      cacheable: true,
      handle: (req, ctx) => {
        const uri = p(req).uri as string;
        return audited(ctx, 'skills/get', { uri }, skillOf(uri), async () => ({ skill: await backend.resources.getSkill(uri), ttlMs: CACHE_TTL_MS, cacheScope: CACHE_SCOPE }));
      },
    },
    {
      method: 'resources/directory/read',
      schema: DirectoryReadRequest,
      cacheable: false,
      handle: (req, ctx) => {
        const uri = p(req).uri as string;
        return audited(ctx, 'resources/directory/read', { uri }, skillOf(uri), async () => {
          const page = await backend.resources.directory(uri, p(req).cursor);
          return { resources: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
        });
      },
    },
    {
      method: 'prompts/list',
      schema: ListRequest('prompts/list'),
      cacheable: true,
      handle: async () => ({ prompts: skillPrompts(backend.resources.skills()) }),
    },
    {
      method: 'prompts/get',
      schema: GetPromptRequest,
      cacheable: false,
      handle: (req, ctx) => {
        const { name, arguments: args } = p(req) as { name: string; arguments?: Record<string, string> };
        return audited(ctx, 'prompts/get', { name, arguments: args }, name, async () => ({ ...(await getSkillPrompt(backend.catalog, backend.resources.skills(), name, args)) }));
      },
    },
  );
  return table;
}

/** A tool's input schema with the optional `session` handle argument of 2026-07-28. */
function withSessionArg(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  return { ...schema, properties: { ...properties, [SESSION_ARG]: SESSION_ARG_SCHEMA } };
}

/** -32602 for a request whose params do not fit its method's schema, naming the first problem. */
export function paramsError(method: string, error: z.ZodError): Error {
  const first = error.issues[0];
  return invalidParams(`${method}: invalid params${first ? ` at '${first.path.join('.') || '(params)'}': ${first.message}` : ''}.`);
}
