// One MCP session: an SDK `Server` whose handlers call the shared backend, acting in the session's own runtime
// session. Tools, skill resources (with the Skills Extension's methods), prompts and the instructions; change
// notifications follow the backend's watcher. Each request is written to the audit log with the session id.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { toolAuditEntries } from '../../core/tools/toolAudit';
import { cliVersion } from '../version';
import type { McpBackend } from './mcpBackend';
import { invalidParams } from './requestError';
import { SKILLS_EXTENSION_ID } from './skillResources';
import { getSkillPrompt, skillPrompts } from './skillPrompts';
import { skillFileUri } from '../../core/mcp/skillUri';
import { callMcpTool, mcpTools } from './toolAdapter';

const SkillsListRequest = z.object({ method: z.literal('skills/list'), params: z.object({ cursor: z.string().optional() }).passthrough().optional() });
const SkillsGetRequest = z.object({ method: z.literal('skills/get'), params: z.object({ uri: z.string() }).passthrough() });
const DirectoryReadRequest = z.object({ method: z.literal('resources/directory/read'), params: z.object({ uri: z.string(), cursor: z.string().optional() }).passthrough() });

/** Most resource subscriptions one session may hold. */
const MAX_SUBSCRIPTIONS = 1000;

/** A connected session: its SDK server and a disposer for its notifications. */
export interface McpSession {
  server: Server;
  /** The runtime session it acts in. */
  runtimeSessionId: string;
  dispose(): Promise<void>;
}

/** Builds the SDK server of one MCP session; `mcpSessionId` names it in the runtime and the audit log. */
export async function createMcpSession(backend: McpBackend, mcpSessionId: string): Promise<McpSession> {
  const sessionId = await backend.openSession(mcpSessionId);
  const server = new Server(
    { name: 'agent-skills', title: 'Agent Skills Runtime', version: cliVersion() },
    {
      capabilities: {
        // Without tools (--no-tools) the capability is not declared at all, so a client lists none.
        ...(backend.tools === false ? {} : { tools: { listChanged: false } }),
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        extensions: { [SKILLS_EXTENSION_ID]: { directoryRead: true } },
      },
      instructions: await backend.instructions(),
    },
  );
  // MCP requests that are not tool calls of the core (reads, skills/*, prompts, refusals) through the one audit builder.
  const audit = (action: string, args: unknown, started: number, outcome: string, skill?: string) => {
    const durationMs = performance.now() - started;
    for (const e of toolAuditEntries({ started: new Date(Date.now() - durationMs), durationMs, session: sessionId, action: `mcp:${action}`, input: args, outcome, skills: skill ? [{ name: skill }] : [] })) backend.runtime.audit?.append(e);
  };
  // Wraps a non-tool handler so its outcome (ok, or the error code) is audited like a tool call.
  const audited = <T>(action: string, args: unknown, skill: string | undefined, fn: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    return fn().then(
      (r) => {
        audit(action, args, t0, 'ok', skill);
        return r;
      },
      (e: unknown) => {
        audit(action, args, t0, `error:${typeof (e as { code?: unknown }).code === 'number' ? (e as { code: number }).code : 'internal'}`, skill);
        throw e;
      },
    );
  };
  const skillOf = (uri: string) => /^skill:\/\/([^/]+)/.exec(uri)?.[1];

  // A session that ends (client disconnected, DELETE, idle, server stopping) cancels its tool calls, so a
  // script it started, and whatever that script left behind with setsid, dies with it (issue 22.6).
  const ending = new AbortController();
  const inFlight = new Set<Promise<unknown>>();
  if (backend.tools !== false) {
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: mcpTools(backend).map((t) => ({ name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema as { type: 'object' }, annotations: { readOnlyHint: !t.sideEffects, openWorldHint: false } })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
      const t0 = performance.now();
      const call = callMcpTool(backend, req.params.name, req.params.arguments ?? {}, { sessionId, signal: AbortSignal.any([extra.signal, ending.signal]) }, backend.content);
      inFlight.add(call);
      const r = await call.finally(() => inFlight.delete(call));
      // list_skills and refusals before any tool ran (unknown tool, scripts disabled) are audited here.
      if (!r.audited) audit(`tools/call ${req.params.name}`, req.params.arguments ?? {}, t0, r.isError ? `error:${(/^Error \(([a-z_]+)\)/.exec(r.text) ?? [])[1] ?? 'refused'}` : 'ok');
      return { content: [{ type: 'text', text: r.text }], isError: r.isError };
    });
  }
  server.setRequestHandler(ListResourcesRequestSchema, () => audited('resources/list', {}, undefined, async () => ({ resources: await backend.resources.listResources() })));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [{ uriTemplate: 'skill://{skill}/{+path}', name: 'skill-file', description: 'A file of a served skill; read skill://<name>/SKILL.md first.', mimeType: 'text/markdown' }],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (req) =>
    audited('resources/read', { uri: req.params.uri }, skillOf(req.params.uri), async () => ({ contents: [await backend.resources.read(req.params.uri)] })),
  );
  const subscribed = new Set<string>();
  server.setRequestHandler(SubscribeRequestSchema, async (req) => {
    // Bounded: a client cannot grow the server's memory one subscription at a time.
    if (!subscribed.has(req.params.uri) && subscribed.size >= MAX_SUBSCRIPTIONS) throw invalidParams(`This session already has ${MAX_SUBSCRIPTIONS} subscriptions; unsubscribe from some first.`);
    subscribed.add(req.params.uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (req) => {
    subscribed.delete(req.params.uri);
    return {};
  });
  server.setRequestHandler(SkillsListRequest, () => audited('skills/list', {}, undefined, async () => ({ skills: await backend.resources.listSkills() }) as never));
  server.setRequestHandler(SkillsGetRequest, (req) => audited('skills/get', { uri: req.params.uri }, skillOf(req.params.uri), async () => ({ skill: await backend.resources.getSkill(req.params.uri) }) as never));
  server.setRequestHandler(DirectoryReadRequest, (req) =>
    audited('resources/directory/read', { uri: req.params.uri }, skillOf(req.params.uri), async () => ({ resources: await backend.resources.directory(req.params.uri) }) as never),
  );
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: skillPrompts(backend.resources.skills()) }));
  server.setRequestHandler(GetPromptRequestSchema, (req) =>
    audited('prompts/get', { name: req.params.name, arguments: req.params.arguments }, req.params.name, () => getSkillPrompt(backend.catalog, backend.resources.skills(), req.params.name, req.params.arguments)),
  );

  // Disk changes: the list changed when skills came or went; subscribers of a changed skill's files hear of each.
  const onChanged = (c: { skills: string[]; listChanged: boolean }) => {
    const send = async () => {
      await server.sendResourceListChanged();
      if (c.listChanged) await server.sendPromptListChanged();
      for (const uri of subscribed) {
        const m = /^skill:\/\/([^/]+)/.exec(uri);
        if (m && c.skills.some((s) => skillFileUri(s) === `skill://${m[1]}`)) await server.sendResourceUpdated({ uri });
      }
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
      await backend.closeSession(mcpSessionId);
    },
  };
}

