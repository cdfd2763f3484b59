// What every MCP session of one `agent-skills mcp` process shares: the catalog over the skill roots, the runtime
// (sessions, tools, audit), the script runner, the skill resources, and a watcher that tells sessions when
// skills changed on disk. Sessions are the runtime's own (`mcp-<MCP session id>`), opened and deleted here.
import { EventEmitter } from 'node:events';
import { createAgentSkills } from '../../core/agentSkills';
import type { SandboxPolicy } from '../../core/exec';
import type { SandboxStatus } from '../../core/exec/sandboxStatus';
import type { SkillRoot } from '../../core/registry';
import type { SkillTools } from '../../core/runtime/skillTools';
import { lateSource } from '../../core/runtime/lateSource';
import type { SkillSource } from '../../core/runtime/runtimeTypes';
import { SkillContentCache } from '../../core/runtime/skillContent';
import { runtimeToolNames } from '../../core/tools/toolNames';
import { defaultToolingGuidance } from '../../core/prompt/baseRules';
import { surfacePromptOptions } from '../../core/toolTable/toolSurface';
import { SkillResources } from './skillResources';
import type { McpToolServices } from './toolAdapter';
import type { ToolSurface } from '../../core/catalog/catalogSurface';
import { watchSkillRoots } from './watchRoots';
import { stderrLogger } from '../stderrLogger';
import { startMcpServers } from '../../core/mcp/connectMcpServers';
import type { McpLaunch } from '../../core/mcp/mcpLaunch';
import { mcpServers } from '../../core/sourceReaders';
import type { SessionStateStore } from '../../core/runtime/sessionStateStore';
import { folderStateStore } from '../../core/runtime/folderStateStore';
import { handleSessions, isHandleSessionId, type HandleSessions } from './handleSessions';
import type { ConfirmScripts } from './scriptConsent';

/** How the server was started (from the command line). */
export interface McpBackendOptions {
  roots: readonly SkillRoot[];
  stateDir: string;
  surface: ToolSurface;
  allowScripts: boolean;
  readOnly: boolean;
  /** False with `--no-tools`: resources, prompts and instructions only (default true). */
  tools?: boolean;
  /** Undefined: the runner's default (`auto`). */
  sandbox?: SandboxPolicy;
  /** Watch the roots and notify sessions (default true). */
  watch?: boolean;
  /** Delay between a change on disk and the rescan (ms, default 150). */
  watchDelayMs?: number;
  /** Other MCP servers whose skills join the tools' source (not the skill:// resources, which stay ours). */
  mcpServers?: readonly McpLaunch[];
  /** Where 2026-07-28 handle sessions live (default `<stateDir>/handles`); Redis for several replicas. */
  stateStore?: SessionStateStore;
  /**
   * The folder `workspace://` inputs of scripts come from: the client's project for a stdio server (its working
   * folder). None over HTTP: a remote client's files are not on this machine, and the server's own folder is not theirs.
   */
  workspaceDir?: string;
  /** Each MCP session's (or state handle's) artifacts are its own: a server whose clients are different people (HTTP). */
  artifactsPerSession?: boolean;
  /** `--confirm-scripts`: whom to ask before a script runs (default `when-supported`: every client that can be asked). */
  confirmScripts?: ConfirmScripts;
  /**
   * Who may call, as far as this server can tell: a digest of the bearer token HTTP clients must send (`--token`),
   * none otherwise. Bound into every 2026-07-28 `requestState`, so a state minted under one token is refused under another.
   */
  principal?: string;
}

/** The shared part of the server. */
export interface McpBackend extends McpToolServices {
  resources: SkillResources;
  content: SkillContentCache;
  /** `--confirm-scripts` (scriptConsent.ts). */
  confirmScripts: ConfirmScripts;
  /** {@link McpBackendOptions.principal}; '' when there is none (stdio, or HTTP on loopback without a token). */
  principal: string;
  /** Whether scripts would run sandboxed, from the runner's own probe (undefined without --allow-scripts). */
  sandbox?: SandboxStatus;
  /** Budgeted `<available_skills>` and the loading rule, for `instructions` at initialize. */
  instructions(): Promise<string>;
  /** Fires `changed` with the skill names whose files changed (added, removed or edited) after a rescan. */
  events: EventEmitter;
  /** 2026-07-28 tool calls' sessions: state handles over the state store. */
  handles: HandleSessions;
  /**
   * True with a shared state store (`--state-store`): 2025-11-25 sessions keep their state there too (handles.legacy),
   * so a replica that did not create a session serves it; false: a 2025-11-25 session lives in its process.
   */
  sharesSessions: boolean;
  openSession(mcpSessionId: string): Promise<string>;
  closeSession(mcpSessionId: string): Promise<void>;
  close(): Promise<void>;
}

/** The runtime session of an MCP session. */
export function runtimeSessionId(mcpSessionId: string): string {
  return `mcp-${mcpSessionId}`;
}

/** Opens the catalog and runtime; nothing is served until a transport connects a session. */
export async function createMcpBackend(o: McpBackendOptions): Promise<McpBackend> {
  const toolNames = runtimeToolNames();
  const prompt = surfacePromptOptions(o.surface, toolNames);
  // --allow-scripts is read here only: without it the core has no executor, and the rest follows from that (the
  // tools offered, the sandbox status, and here the guidance, which then describes no script tool).
  if (!o.allowScripts && o.surface !== 'minimal') {
    prompt.toolingGuidance = (prompt.toolingGuidance ?? defaultToolingGuidance(toolNames)).split('\n').filter((l) => !l.includes(toolNames.run_script)).join('\n');
  }
  const events = new EventEmitter();
  events.setMaxListeners(0);
  // The one assembly of the core (as the extension and the other commands): the runtime reads through the
  // catalog, opened over the factory's registry once the factory exists.
  let catalogSource: SkillSource | undefined;
  let handles: HandleSessions | undefined;
  // Other servers connect in the background: our initialize never waits on them. Each one's skills join the tools'
  // source (through the factory's MCP source) when it is up, and sessions hear that the skills changed.
  const { clients } = startMcpServers(o.mcpServers ?? [], o.stateDir, {
    settled(c) {
      if (c.state.state !== 'up') core.log.warn('reason' in c.state ? c.state.reason : c.state.state);
      else if (c.list().length) events.emit('changed', { skills: c.list().map((s) => s.id), listChanged: true });
    },
  });
  const core = createAgentSkills({
    roots: o.roots,
    stateDir: o.stateDir,
    runner: { ...(o.workspaceDir ? { workspaceDir: o.workspaceDir } : {}), ...(o.sandbox ? { sandbox: o.sandbox } : {}) },
    // Without --allow-scripts there is no executor at all: run_script is neither offered nor able to run.
    ...(o.allowScripts ? {} : { executor: () => undefined }),
    source: lateSource(() => catalogSource!),
    sources: [mcpServers(clients)],
    runtime: { loadMode: 'session', artifactsPerSession: o.artifactsPerSession === true, sessionsStoredElsewhere: isHandleSessionId, sessionChangedElsewhere: (id, change) => handles?.noteChange(id, change), audit: { onAppend: (e) => handles?.noteAudit(e) }, toolNames, ...prompt, ...(o.tools === false ? { resourcesOnly: true, toolingGuidance: undefined } : {}) },
    logger: stderrLogger('agent-skills mcp'),
  });
  await core.refresh();
  const catalog = await core.catalog();
  catalogSource = catalog.skillSource();
  const runtime: SkillTools = core.tools();
  const resources = new SkillResources(catalog);
  const sandbox = runtime.runsScripts ? await core.sandboxStatus() : undefined;

  const signature = async () => {
    const m = new Map<string, string>();
    for (const e of resources.skills()) m.set(e.name, (await resources.files(e)).map((f) => `${f.path}=${f.ref}`).join('\n'));
    return m;
  };
  let last = o.watch === false ? new Map<string, string>() : await signature();
  const rescan = async () => {
    await catalog.refresh();
    resources.invalidate();
    const next = await signature();
    const changed = [...new Set([...last.keys(), ...next.keys()])].filter((n) => last.get(n) !== next.get(n));
    const listChanged = last.size !== next.size || [...next.keys()].some((n) => !last.has(n));
    last = next;
    if (changed.length) events.emit('changed', { skills: changed, listChanged });
  };
  const watcher = o.watch === false ? undefined : watchSkillRoots(o.roots.map((r) => r.path), o.watchDelayMs ?? 150, () => rescan().catch((e: unknown) => core.log.error(`rescanning the skill folders failed: ${(e as Error).message}`)));

  return {
    runtime,
    catalog,
    surface: o.surface,
    readOnly: o.readOnly,
    tools: o.tools !== false,
    resources,
    content: new SkillContentCache(core.host),
    sandbox,
    confirmScripts: o.confirmScripts ?? 'when-supported',
    principal: o.principal ?? '',
    events,
    handles: (handles = handleSessions(runtime, o.stateStore ?? folderStateStore(o.stateDir, core.host))),
    sharesSessions: o.stateStore !== undefined,
    async instructions() {
      const scratch = runtime.scratch();
      return (await scratch.compose('mcp-initialize', [])).instructions;
    },
    async openSession(mcpSessionId) {
      const id = runtimeSessionId(mcpSessionId);
      await runtime.openSession(id, 'session');
      return id;
    },
    async closeSession(mcpSessionId) {
      await runtime.sessions.delete(runtimeSessionId(mcpSessionId));
    },
    async close() {
      watcher?.close();
      await Promise.all(clients.map((c) => c.close()));
      await core.dispose();
      await o.stateStore?.close();
    },
  };
}
