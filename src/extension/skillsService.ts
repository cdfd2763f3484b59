// The one object that owns the core for this window: the skill registry, the runtime (sessions, tools,
// prompt composer, audit log) and the script runner. Built lazily on first use, so activation stays light.
// The parts live in service/: roots and packs (windowRoots), the core's lifecycle (windowCore) and assembly
// (runtimeWiring), pinned skills, session titles and deferral to VS Code's built-in skills. This file is the
// glue the views, tools and chat use, and the tool dispatch.
import type { AgentSkills } from '../core/agentSkills';
import type { SyncWritableHost } from '../core/host/fileWrites';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SandboxStatus } from '../core/exec/sandboxStatus';
import type { LocatedPlugin } from '../core/plugins';
import type { PluginContributions } from '../core/registry/pluginContributions';
import type { SkillIndex } from '../core/registry/skillRegistry';
import type { SkillRecord, SkillRoot } from '../core/registry/registryTypes';
import type { SkillTools } from '../core/runtime/skillTools';
import type { ToolResult } from '../core/tools/toolResult';
import { McpSkillServers } from './mcpSkillServers';
import { pluginMcpConsent } from './pluginMcpConsent';
import { WINDOW_SESSION_PREFIX } from './ids';
import { listableSkills } from './service/builtinDeferral';
import { PinnedSkills } from './service/pinnedSkills';
import type { CatalogProvider } from './service/runtimeWiring';
import { ServiceEventHub } from './service/serviceEvents';
import { SessionTitles } from './service/sessionTitles';
import { WindowCore } from './service/windowCore';
import { WindowRoots, workspaceFolders } from './service/windowRoots';
import { readSettings, RUNTIME_SETTING_KEYS, SECTION, type RuntimeSettings } from './settings';

export { type CatalogProvider } from './service/runtimeWiring';
export { UNTRUSTED_RUN } from './service/trustGate';
export type { ServiceEvents } from './service/serviceEvents';

/** The session Copilot's own agent (and any caller without an @skills conversation) uses in this window. */
export const WINDOW_SESSION_ID = `${WINDOW_SESSION_PREFIX}agent`;

export class SkillsService extends ServiceEventHub {
  private readonly pinned = new PinnedSkills();
  private readonly titles: SessionTitles;
  private readonly windowRoots: WindowRoots;
  private readonly windowCore: WindowCore;
  /** Servers of agentSkills.mcpServers; their skills join the runtime's source (see mcpSkillServers.ts). */
  private readonly mcp: McpSkillServers;
  private catalog: CatalogProvider | undefined;
  settings: RuntimeSettings;

  constructor(
    private readonly context: vscode.ExtensionContext,
    readonly log: vscode.LogOutputChannel,
  ) {
    super();
    const read = readSettings();
    this.settings = read.settings;
    for (const p of read.problems) log.warn(p);
    this.titles = new SessionTitles(context.workspaceState);
    this.mcp = new McpSkillServers(() => this.stateDir, log, pluginMcpConsent(context.globalState, log), () => this.skillsChanged.fire());
    // VS Code keeps its installed agent plugins beside globalStorage, in <user data>/User/agent-plugins.
    this.windowRoots = new WindowRoots(() => this.settings, () => this.stateDir, log, () => path.resolve(context.globalStorageUri.fsPath, '..', '..'), () => this.windowCore.sourceRoots());
    this.windowCore = new WindowCore({
      roots: this.windowRoots,
      settings: () => this.settings,
      stateDir: () => this.stateDir,
      catalog: () => this.catalog,
      log,
      skillsChanged: () => this.skillsChanged.fire(),
      sessionsChanged: (e) => this.sessionsChanged.fire(e),
      scanned: (registry) => this.scannedEmitter.fire(registry),
      mcp: this.mcp,
      pluginDataRoot: () => this.pluginDataRoot,
    });
  }

  /** Folder of sessions, audit log and run workspaces: per workspace, so sessions survive a reload. */
  get stateDir(): string {
    return (this.context.storageUri ?? this.context.globalStorageUri).fsPath;
  }

  /** Where Agent Plugins keep their PLUGIN_DATA folders: per user, not per workspace, so they survive both updates and folders. */
  get pluginDataRoot(): string {
    return path.join(this.context.globalStorageUri.fsPath, 'plugin-data');
  }

  /** The registry and runtime, created (and the skills scanned) on first use. */
  ready(): Promise<{ registry: SkillIndex; runtime: SkillTools }> {
    return this.windowCore.ready();
  }

  /** The scanned registry alone, for views that list skills: it does not wait for the runtime. */
  /** The window's one file access (see WindowCore.host): the catalog opens over it too. */
  get host(): SyncWritableHost {
    return this.windowCore.host;
  }

  /** The window's one assembly of the core (scanned). */
  core(): Promise<AgentSkills> {
    return this.windowCore.core();
  }

  registryReady(): Promise<SkillIndex> {
    return this.windowCore.registryReady();
  }

  /** The registry once scanned, without forcing a scan. */
  peekRegistry(): SkillIndex | undefined {
    return this.windowCore.peekRegistry();
  }

  /** Whether a script run would be sandboxed now, and why not: the runner's own probe (the one its runs decide with). */
  sandboxStatus(): Promise<SandboxStatus> {
    return this.windowCore.sandboxStatus();
  }

  /** The registry and runtime if they exist already (for views that must not force a scan). */
  peek(): { registry: SkillIndex; runtime: SkillTools } | undefined {
    return this.windowCore.peek();
  }

  /** Skills other extensions contribute; see WindowRoots. */
  pluginSkills(): PluginContributions {
    return this.windowRoots.pluginSkills();
  }

  /** The Agent Plugins of the last scan (rejected ones with their problems), for the Skills view's Plugins group. */
  agentPlugins(): readonly LocatedPlugin[] {
    return this.windowRoots.agentPlugins();
  }

  /** Per plugin root: the MCP servers it declares that are not started, and how to enable them (Skills view). */
  pluginMcpNotices(): Map<string, string> {
    return this.windowRoots.pluginMcpNotices(this.pluginDataRoot);
  }

  /** Where hosts record the plugins they install: a change there rescans (see watchers.ts). */
  pluginInstallRecords(): { base: string; pattern: string }[] {
    const home = os.homedir();
    return [
      { base: path.resolve(this.context.globalStorageUri.fsPath, '..', '..', 'agent-plugins'), pattern: 'installed.json' },
      { base: path.join(home, '.claude'), pattern: '{plugins/installed_plugins.json,settings.json}' },
      { base: path.join(home, '.copilot', 'installed-plugins'), pattern: '**/plugin.json' },
    ];
  }

  /** The servers of agentSkills.mcpServers that are not serving skills (down, or without the skills extension). */
  mcpServerProblems(): { server: string; reason: string }[] {
    return this.mcp.problems();
  }

  /** An extension was installed, removed or updated: new plugin roots, rescanned if they changed. */
  async extensionsChanged(): Promise<void> {
    if (this.windowRoots.rereadPluginSkills()) await this.windowCore.rescanRoots();
  }

  /** Lets the runtime serve skills through the catalog (newest overlay revisions of plugin and pack skills). */
  attachCatalog(catalog: CatalogProvider): void {
    this.catalog = catalog;
  }

  /** The roots to scan now (trust, settings, extensions, packs); see WindowRoots. */
  roots(): SkillRoot[] {
    return this.windowRoots.roots();
  }

  /** The roots of the last scan, without reading plugins or settings again. */
  scannedRoots(): SkillRoot[] {
    return this.windowRoots.scannedRoots();
  }

  /** Settings or trust changed: new roots, and a new runtime over the same sessions folder. */
  async reconfigure(): Promise<void> {
    const read = readSettings();
    this.settings = read.settings;
    for (const p of read.problems) this.log.warn(p);
    if (this.windowCore.started) await this.mcp.update(this.settings.mcpServers, vscode.workspace.isTrusted, this.windowRoots.pluginMcpServers(this.pluginDataRoot));
    await this.windowCore.applyRoots();
  }

  /** Rereads the skill folder of a SKILL.md a watcher saw created, changed or deleted. */
  refreshSkillFile(file: vscode.Uri): Promise<void> {
    return this.windowCore.refreshSkillDir(path.dirname(file.fsPath));
  }

  /** Rereads one skill folder of one of our roots (created, changed or deleted); ignores anything else. */
  refreshSkillDir(dir: string): Promise<void> {
    return this.windowCore.refreshSkillDir(dir);
  }

  /** Rescans every root, and reads the installed agent plugins again (the Refresh button). */
  async refresh(): Promise<void> {
    await this.windowCore.registryReady();
    await this.windowCore.rescanRoots();
  }

  /** Runs one runtime tool in a session (created when missing). Never throws for model-facing problems. */
  async invoke(tool: string, input: unknown, sessionId: string, options: { callId?: string; signal?: AbortSignal } = {}): Promise<ToolResult> {
    const { runtime } = await this.ready();
    const result = await runtime.invoke(tool, input, { sessionId, ...options });
    if (result.ok) this.log.info(`${sessionLabel(sessionId)}: ${result.tool} ok`);
    else this.log.warn(`${sessionLabel(sessionId)}: ${result.tool} refused (${result.error.code}): ${result.error.message}`);
    return result;
  }

  /** Loads a skill the user picked (tree, command, `/load`) into a session, pinned through its next `@skills` turn. */
  async loadByUser(sessionId: string, name: string): Promise<ToolResult> {
    const { runtime } = await this.ready();
    await runtime.openSession(sessionId);
    const r = await this.invoke('load', { names: [name], mode: 'add' }, sessionId);
    if (r.ok) this.pinned.pin(sessionId, name);
    return r;
  }

  /** Unloads skills the user picked (or all); they are no longer carried into the next turn. */
  async unloadByUser(sessionId: string, names: string[] | 'all'): Promise<ToolResult> {
    this.pinned.unpin(sessionId, names);
    return this.invoke('unload', names === 'all' ? { all: true } : { names }, sessionId);
  }

  /** The host file of a `run://<run_id>/<path>` output ref while its run folder is kept; undefined when gone. */
  resolveRunRef(ref: string): string | undefined {
    return this.windowCore.resolveRunRef(ref);
  }

  /** Skills the user loaded since the last turn began, left in place (what a preview of the next turn counts). */
  pinnedFor(sessionId: string): string[] {
    return this.pinned.peek(sessionId);
  }

  /** Skills the user loaded since the last turn began (cleared by this call). */
  takePinned(sessionId: string): string[] {
    return this.pinned.take(sessionId);
  }

  /** The skills of agentSkills.mcpServers (connecting to them first when the setting changed), for the Skills view. */
  async mcpRecords(): Promise<SkillRecord[]> {
    if (await this.mcp.update(this.settings.mcpServers, vscode.workspace.isTrusted, this.windowRoots.pluginMcpServers(this.pluginDataRoot))) this.skillsChanged.fire();
    return this.windowCore.mcpRecords();
  }

  /** Skills our tools list to agents other than @skills: without those VS Code's own skill support lists already. */
  listableSkills(registry: SkillIndex, sessionId: string): SkillRecord[] {
    const vscodePlugins = new Set(this.agentPlugins().filter((p) => p.hosts.includes('vscode')).map((p) => p.root));
    return listableSkills([...registry.usable(), ...(this.windowCore.started ? this.windowCore.mcpRecords() : [])], sessionId, workspaceFolders(), this.pluginSkills().chatSkillDirs, vscodePlugins);
  }

  /** The label of a session in the tree (the first prompt of its conversation). */
  sessionTitle(id: string): string | undefined {
    return this.titles.get(id);
  }

  setSessionTitle(id: string, title: string): Promise<void> {
    return this.titles.setOnce(id, title);
  }

  /** True when a settings change touches the runtime. */
  static affectsRuntime(e: vscode.ConfigurationChangeEvent): boolean {
    return e.affectsConfiguration(SECTION) && !e.affectsConfiguration(`${SECTION}.validation`) && !e.affectsConfiguration(`${SECTION}.trace`) && !e.affectsConfiguration(`${SECTION}.${RUNTIME_SETTING_KEYS.mcpProvide}`);
  }

  override dispose(): void {
    this.windowCore.dispose();
    this.mcp.dispose();
    super.dispose();
  }
}

function sessionLabel(id: string): string {
  return id.startsWith(WINDOW_SESSION_PREFIX) ? 'window session' : `session ${id.slice(0, 8)}`;
}
