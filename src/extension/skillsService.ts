// The one object that owns the core for this window: the skill registry, the runtime (sessions, tools,
// prompt composer, audit log) and the script runner. Built lazily on first use, so activation stays light.
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { createScriptRunner, type ScriptRunner } from '../core/exec/scriptRunner';
import type { SandboxStatus } from '../core/exec/sandboxStatus';
import type { SkillCatalog } from '../core/catalog/skillCatalog';
import { pluginRegistryHost, type PluginContributions } from '../core/registry/pluginContributions';
import { createNodeRegistryHost } from '../core/registry/registryHost';
import { createSkillRegistry, type SkillRegistry } from '../core/registry/skillRegistry';
import { defaultSkillRoots } from '../core/registry/defaultSkillRoots';
import type { SkillRecord, SkillRoot } from '../core/registry/types';
import { sourceOf } from '../core/sources';
import { ToolError } from '../core/tools/toolError';
import type { ToolResult } from '../core/tools/toolResult';
import { runtimeToolNames } from '../core/tools/toolNames';
import { artifactReaderOf } from '../core/runtime/execAdapters';
import { skillSourceOf } from '../core/runtime/registrySource';
import { createSkillsRuntime, type SkillsRuntime } from '../core/runtime/skillsRuntime';
import type { ExecRequest, ScriptExecutor, SessionEvent, SkillSource } from '../core/runtime/types';
import { WINDOW_SESSION_PREFIX } from './ids';
import { readPluginContributions } from './pluginSkills';
import { resolvePackSpecs } from './packSpecs';
import { mountConfiguredPacks } from './skillPacks';
import { readBuiltinSkills, readSettings, SECTION, type RuntimeSettings } from './settings';
import { McpSkillServers } from './mcpSkillServers';
import type { McpAwareSource } from '../core/mcp/mcpSkillSource';
import { surfacePromptOptions } from './toolSurface';

/** How long a scan waits for the configured skill packs; a first download takes longer and lands later. */
const QUICK_PACK_MOUNT_MS = 1500;

/** The session Copilot's own agent (and any caller without an @skills conversation) uses in this window. */
export const WINDOW_SESSION_ID = `${WINDOW_SESSION_PREFIX}agent`;

/** Why a script may not run in an untrusted workspace, worded for the model and the user. */
export const UNTRUSTED_RUN = new ToolError(
  'run_refused',
  'Skill scripts do not run while this workspace is not trusted (VS Code Restricted Mode).',
  'Tell the user to trust this folder (command "Workspaces: Manage Workspace Trust") if they want the script to run; meanwhile show them the command so they can run it themselves.',
);

/** Listeners of the service: the tree, the badge, the language client. */
export interface ServiceEvents {
  /** Skills were added, removed or changed (a refresh, a watcher, a settings change). */
  onDidChangeSkills: vscode.Event<void>;
  /** A session changed (load, unload, new turn, ...). */
  onDidChangeSessions: vscode.Event<SessionEvent>;
}

/** What a chat session is called in the tree (the first prompt of its conversation). */
const LABELS_KEY = 'agentSkills.sessionLabels';

/** The window's skill catalog as the service sees it (see CatalogHost): the runtime serves its newest revisions. */
export interface CatalogProvider {
  /** The catalog opened last, if any. */
  current(): SkillCatalog | undefined;
  /** Opens the catalog (over this service's registry) if needed. */
  ready(): Promise<SkillCatalog>;
}

export class SkillsService implements ServiceEvents, vscode.Disposable {
  private readonly skillsChanged = new vscode.EventEmitter<void>();
  private readonly sessionsChanged = new vscode.EventEmitter<SessionEvent>();
  readonly onDidChangeSkills = this.skillsChanged.event;
  readonly onDidChangeSessions = this.sessionsChanged.event;
  private readonly scannedEmitter = new vscode.EventEmitter<SkillRegistry>();
  /** The registry finished its first scan (whoever asked for it: a view, a tool, a chat request). */
  readonly onDidScan = this.scannedEmitter.event;
  private state: Promise<{ registry: SkillRegistry; runtime: SkillsRuntime }> | undefined;
  private scanned: Promise<SkillRegistry> | undefined;
  private scannedRegistry: SkillRegistry | undefined;
  private runtimeSub: { dispose(): void } | undefined;
  /** The script runner of the current runtime: it owns the sandbox decision the confirmation shows. */
  private runner: ScriptRunner | undefined;
  private current: { registry: SkillRegistry; runtime: SkillsRuntime } | undefined;
  private readonly pinned = new Map<string, Set<string>>();
  private plugins: PluginContributions | undefined;
  private catalog: CatalogProvider | undefined;
  /** Roots of the mounted `agentSkills.packs`, and the key (the resolved specs) they were mounted for. */
  private packs: { key: string; roots: SkillRoot[] } = { key: '', roots: [] };
  private packsMounting: { key: string; done: Promise<void> } | undefined;
  settings: RuntimeSettings;
  /** Servers of agentSkills.mcpServers; their skills join the runtime's source (see mcpSkillServers.ts). */
  private readonly mcp: McpSkillServers;
  private runtimeMcp: McpAwareSource | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    readonly log: vscode.LogOutputChannel,
  ) {
    const read = readSettings();
    this.settings = read.settings;
    for (const p of read.problems) log.warn(p);
    this.mcp = new McpSkillServers(() => this.stateDir, log);
  }

  /** Folder of sessions, audit log and run workspaces: per workspace, so sessions survive a reload. */
  get stateDir(): string {
    return (this.context.storageUri ?? this.context.globalStorageUri).fsPath;
  }

  /** The registry and runtime, created (and the skills scanned) on first use. */
  ready(): Promise<{ registry: SkillRegistry; runtime: SkillsRuntime }> {
    this.state ??= this.create();
    return this.state;
  }

  /**
   * The scanned registry alone, for views that list skills: it does not wait for the runtime (sessions read
   * from disk, script runner), which is created alongside.
   */
  registryReady(): Promise<SkillRegistry> {
    this.scanned ??= this.scan();
    return this.scanned;
  }

  /** The registry once scanned, without forcing a scan. */
  peekRegistry(): SkillRegistry | undefined {
    return this.scannedRegistry;
  }

  /**
   * Whether a script run would be sandboxed now, and why not: the runner's own probe (the one its runs
   * decide with), so the confirmation cannot promise a sandbox the run then goes without.
   */
  async sandboxStatus(): Promise<SandboxStatus> {
    await this.ready();
    return this.runner!.sandboxStatus();
  }

  /** The registry and runtime if they exist already (for views that must not force a scan). */
  peek(): { registry: SkillRegistry; runtime: SkillsRuntime } | undefined {
    return this.current;
  }

  private workspaceFolders(): string[] {
    return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  }

  /**
   * Skills other extensions contribute (read once, then on every extension change). Not tied to workspace
   * trust: the user installed those extensions.
   */
  pluginSkills(): PluginContributions {
    if (!this.plugins) {
      this.plugins = readPluginContributions();
      for (const p of this.plugins.problems) this.log.warn(p);
    }
    return this.plugins;
  }

  /** An extension was installed, removed or updated: new plugin roots, rescanned if they changed. */
  async extensionsChanged(): Promise<void> {
    const before = this.plugins;
    this.plugins = undefined;
    const after = this.pluginSkills();
    const key = (c: PluginContributions | undefined) => JSON.stringify([c?.roots, [...(c?.only ?? [])].map(([k, v]) => [k, [...v].sort()])]);
    if (key(before) === key(after) || !this.scanned) return;
    const registry = await this.scanned;
    registry.setRoots(this.roots());
    await registry.refresh();
    this.skillsChanged.fire();
    // Reopen the catalog over the new roots now, so the runtime reads the new skills' overlays.
    await this.catalog?.ready().catch(() => undefined);
  }

  /** Lets the runtime serve skills through the catalog (newest overlay revisions of plugin and pack skills). */
  attachCatalog(catalog: CatalogProvider): void {
    this.catalog = catalog;
  }

  /** Roots of sources that need trust (the workspace's) only in a trusted workspace; the others always. */
  roots(): SkillRoot[] {
    const trusted = vscode.workspace.isTrusted;
    const extra = this.settings.extraRoots
      .filter((r) => trusted || !sourceOf(r.scope).inWorkspace)
      .map((r) => ({ path: r.path.startsWith('~/') ? path.join(os.homedir(), r.path.slice(2)) : path.resolve(this.workspaceFolders()[0] ?? os.homedir(), r.path), scope: r.scope }));
    const packRoots = this.packs.roots.map((r) => ({ path: r.path, scope: r.scope, source: r.source }));
    return defaultSkillRoots({ workspaceFolders: trusted ? this.workspaceFolders() : [], homeDir: os.homedir(), extraRoots: [...extra, ...packRoots], pluginRoots: this.pluginSkills().roots });
  }

  /**
   * Mounts `agentSkills.packs` (into `<stateDir>/packs`) when the setting or the trust changed since the last
   * mount (trust decides whether workspace-relative paths count). Failed packs are reported and left out.
   * Packs on disk (and downloads already cached) mount in a moment and are waited for; a first download is
   * not: the skills scan without it, and the packs join the registry when it lands (with its progress shown).
   */
  private async mountPacks(): Promise<void> {
    const mounting = this.startMountingPacks();
    if (!mounting) return;
    let timer: NodeJS.Timeout | undefined;
    const landed = await Promise.race([mounting.then(() => true), new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), QUICK_PACK_MOUNT_MS)))]);
    clearTimeout(timer);
    if (landed) return;
    this.log.info('A skill pack is still downloading; the other skills are listed now, and the pack joins them when it is installed.');
    void mounting.then(() => this.applyRoots()).catch((e) => this.log.error(`Adding the downloaded skill packs failed: ${e instanceof Error ? e.message : String(e)}`));
  }

  /** Starts (or joins) mounting the packs of the current settings; undefined when they are mounted already. */
  private startMountingPacks(): Promise<void> | undefined {
    const trusted = vscode.workspace.isTrusted;
    const resolved = resolvePackSpecs(this.settings.packs, { trusted, workspaceFolder: this.workspaceFolders()[0] });
    const key = JSON.stringify(resolved.specs);
    if (this.packs.key === key) return;
    if (this.packsMounting?.key !== key) {
      for (const line of resolved.ignored) this.log.warn(line);
      const done = mountConfiguredPacks(resolved.specs, path.join(this.stateDir, 'packs'), this.log).then((mounted) => {
        // A newer settings change may have started another mount meanwhile: only the newest one applies.
        if (this.packsMounting?.key === key) this.packs = { key, roots: mounted.map((m) => m.root) };
      });
      this.packsMounting = { key, done };
    }
    return this.packsMounting.done;
  }

  private async scan(): Promise<SkillRegistry> {
    await this.mountPacks();
    // The Node host answers synchronously; the registry still yields to the event loop every few ms.
    // In roots of skills contributed one by one (chatSkills), the host shows only those skill folders.
    const registry = createSkillRegistry({ roots: this.roots(), host: pluginRegistryHost(createNodeRegistryHost(), () => this.pluginSkills().only) });
    registry.onDidChange(() => this.skillsChanged.fire());
    const snap = await registry.refresh();
    this.log.info(`Found ${snap.records.length} skill(s) in ${snap.roots.length} folder(s) in ${snap.stats.durationMs.toFixed(0)} ms.`);
    this.scannedRegistry = registry;
    this.scannedEmitter.fire(registry);
    return registry;
  }

  private async create(): Promise<{ registry: SkillRegistry; runtime: SkillsRuntime }> {
    const registry = await this.registryReady();
    // The catalog shares the registry; opening it reads the overlays, so the first load already serves them.
    await this.catalog?.ready().catch(() => undefined);
    if (await this.mcp.update(this.settings.mcpServers, vscode.workspace.isTrusted)) this.skillsChanged.fire();
    const runtime = this.createRuntime(registry);
    this.current = { registry, runtime };
    return this.current;
  }

  /**
   * What the runtime loads and reads from: the catalog once it is open (edited plugin and pack skills at their
   * newest revision, archived ones hidden), the registry before.
   */
  private runtimeSource(registry: SkillRegistry): SkillSource {
    const fallback = skillSourceOf(registry);
    let cached: { catalog: SkillCatalog; source: SkillSource } | undefined;
    const pick = (): SkillSource => {
      const catalog = this.catalog?.current();
      if (!catalog) return fallback;
      if (cached?.catalog !== catalog) cached = { catalog, source: catalog.skillSource() };
      return cached.source;
    };
    return {
      resolve: (nameOrId) => pick().resolve(nameOrId),
      list: () => pick().list(),
      overlayDir: (id) => pick().overlayDir?.(id),
    };
  }

  private createRuntime(registry: SkillRegistry): SkillsRuntime {
    const s = this.settings;
    const runner = createScriptRunner({
      stateDir: path.join(this.stateDir, 'exec'),
      workspaceDir: this.workspaceFolders()[0],
      resolveSkillRoot: (name) => this.resolveQuiet(registry, name)?.rootDir,
      defaultTimeoutMs: Math.round(s.scriptTimeoutSeconds * 1000),
      sandbox: s.sandbox,
      maxRunBytes: Math.round(s.maxRunMB * 1024 * 1024),
      maxHomeBytes: Math.round(s.maxHomeMB * 1024 * 1024),
    });
    this.runner = runner;
    // Checked per run, so granting trust takes effect at once and revoking it can never be raced.
    const executor: ScriptExecutor = {
      run: (req: ExecRequest) => {
        if (!vscode.workspace.isTrusted) throw UNTRUSTED_RUN;
        return runner.run(req);
      },
    };
    const toolNames = runtimeToolNames();
    this.runtimeMcp = this.mcp.wrap(this.runtimeSource(registry));
    const runtime = createSkillsRuntime({
      source: this.runtimeMcp,
      stateDir: this.stateDir,
      executor: this.mcp.guard(executor),
      artifacts: artifactReaderOf(runner.artifacts),
      loadMode: s.loadMode,
      maxLoadedSkills: s.maxLoadedSkills,
      maxReadBytes: s.maxReadBytes,
      placement: s.placement,
      catalogBudget: { maxTokens: s.catalogMaxTokens, maxChars: s.catalogMaxChars },
      loadedContentBudget: s.loadedContentBudget,
      restrictedTools: s.restrictedTools,
      toolNames,
      ...surfacePromptOptions(s.toolSurface, toolNames),
    });
    for (const p of runtime.sessions.loadProblems) this.log.warn(`Session file ${p.file} was not loaded: ${p.problem}`);
    this.runtimeSub?.dispose();
    this.runtimeSub = runtime.onDidChange((e) => this.sessionsChanged.fire(e));
    return runtime;
  }

  private resolveQuiet(registry: SkillRegistry, name: string): SkillRecord | undefined {
    try {
      return registry.resolve(name);
    } catch {
      return undefined;
    }
  }

  /** Settings or trust changed: new roots, and a new runtime over the same sessions folder. */
  async reconfigure(): Promise<void> {
    const read = readSettings();
    this.settings = read.settings;
    for (const p of read.problems) this.log.warn(p);
    if (this.state) await this.mcp.update(this.settings.mcpServers, vscode.workspace.isTrusted);
    await this.applyRoots();
  }

  /** The roots may have changed (settings, trust, a pack that landed): rescan them and serve the result. */
  private async applyRoots(): Promise<void> {
    if (!this.scanned) return;
    const registry = await this.scanned;
    await this.mountPacks();
    registry.setRoots(this.roots());
    await registry.refresh();
    this.skillsChanged.fire();
    // Reopen the catalog over the new roots now (new or removed packs), so the runtime serves them at once.
    await this.catalog?.ready().catch(() => undefined);
    if (!this.state) return;
    const { runtime } = await this.state;
    await runtime.flush();
    const next = this.createRuntime(registry);
    this.current = { registry, runtime: next };
    this.state = Promise.resolve(this.current);
    this.sessionsChanged.fire({ kind: 'updated', sessionId: '', reason: 'reconfigure' });
  }

  /** Rereads the skill folder of a SKILL.md a watcher saw created, changed or deleted. */
  refreshSkillFile(file: vscode.Uri): Promise<void> {
    return this.refreshSkillDir(path.dirname(file.fsPath));
  }

  /** Rereads one skill folder of one of our roots (created, changed or deleted); ignores anything else. */
  async refreshSkillDir(dir: string): Promise<void> {
    if (!this.scanned) return;
    const registry = await this.scanned;
    const root = registry.snapshot().roots.find((r) => r.path === path.dirname(dir));
    if (root) await registry.refreshSkill(dir);
  }

  /** Rescans every root. */
  async refresh(): Promise<void> {
    const registry = await this.registryReady();
    await registry.refresh();
    this.skillsChanged.fire();
  }

  /** Runs one runtime tool in a session (created when missing). Never throws for model-facing problems. */
  async invoke(tool: string, input: unknown, sessionId: string, options: { callId?: string; signal?: AbortSignal } = {}): Promise<ToolResult> {
    const { runtime } = await this.ready();
    const result = await runtime.invoke(tool, input, { sessionId, ...options });
    if (result.ok) this.log.info(`${sessionLabel(sessionId)}: ${result.tool} ok`);
    else this.log.warn(`${sessionLabel(sessionId)}: ${result.tool} refused (${result.error.code}): ${result.error.message}`);
    return result;
  }

  /**
   * Loads a skill the user picked (tree, command, `/load`) into a session, added to what is loaded. In
   * `turn` and `once` mode it is kept through the next `@skills` turn, which the user loaded it for.
   */
  async loadByUser(sessionId: string, name: string): Promise<ToolResult> {
    const { runtime } = await this.ready();
    await runtime.openSession(sessionId);
    const r = await this.invoke('load', { names: [name], mode: 'add' }, sessionId);
    if (r.ok) {
      const set = this.pinned.get(sessionId) ?? new Set<string>();
      set.add(name);
      this.pinned.set(sessionId, set);
    }
    return r;
  }

  /** Unloads skills the user picked (or all); they are no longer carried into the next turn. */
  async unloadByUser(sessionId: string, names: string[] | 'all'): Promise<ToolResult> {
    const set = this.pinned.get(sessionId);
    if (names === 'all') this.pinned.delete(sessionId);
    else for (const n of names) set?.delete(n);
    return this.invoke('unload', names === 'all' ? { all: true } : { names }, sessionId);
  }

  /** The host file of a `run://<run_id>/<path>` output ref while its run folder is kept; undefined when gone. */
  resolveRunRef(ref: string): string | undefined {
    return this.runner?.resolveRunRef(ref);
  }

  /** Skills the user loaded since the last turn began, left in place (what a preview of the next turn counts). */
  pinnedFor(sessionId: string): string[] {
    return [...(this.pinned.get(sessionId) ?? [])];
  }

  /** Skills the user loaded since the last turn began (cleared by this call). */
  takePinned(sessionId: string): string[] {
    const names = [...(this.pinned.get(sessionId) ?? [])];
    this.pinned.delete(sessionId);
    return names;
  }

  /** The skills of agentSkills.mcpServers (connecting to them first when the setting changed), for the Skills view. */
  async mcpRecords(registry: SkillRegistry): Promise<SkillRecord[]> {
    if (await this.mcp.update(this.settings.mcpServers, vscode.workspace.isTrusted)) this.skillsChanged.fire();
    return this.mcp.records(skillSourceOf(registry));
  }

  /** Skills our tools list to agents other than @skills: without those VS Code's own skill support lists already. */
  listableSkills(registry: SkillRegistry, sessionId: string): SkillRecord[] {
    const usable = [...registry.usable(), ...(this.runtimeMcp?.mcpRecords() ?? [])];
    // Read live: a settings change must apply to the very next call, not after the runtime is rebuilt.
    const defer = vscode.workspace.getConfiguration(SECTION).get<boolean>('deferToBuiltinSkills') !== false;
    if (!sessionId.startsWith(WINDOW_SESSION_PREFIX) || !defer) return usable;
    const builtin = readBuiltinSkills(this.workspaceFolders());
    if (!builtin.enabled) return usable;
    const covered = new Set(builtin.folders.map((f) => path.resolve(f)));
    // VS Code's skill support also lists what extensions contribute through its chatSkills point.
    const contributed = new Set(this.pluginSkills().chatSkillDirs);
    return usable.filter((r) => !covered.has(path.resolve(r.root.path)) && !contributed.has(r.rootDir));
  }

  /** The label of a session in the tree (the first prompt of its conversation). */
  sessionTitle(id: string): string | undefined {
    return this.context.workspaceState.get<Record<string, string>>(LABELS_KEY, {})[id];
  }

  async setSessionTitle(id: string, title: string): Promise<void> {
    const labels = { ...this.context.workspaceState.get<Record<string, string>>(LABELS_KEY, {}) };
    if (labels[id]) return;
    labels[id] = title.length > 60 ? `${title.slice(0, 57)}…` : title;
    await this.context.workspaceState.update(LABELS_KEY, labels);
  }

  /** True when a settings change touches the runtime. */
  static affectsRuntime(e: vscode.ConfigurationChangeEvent): boolean {
    return e.affectsConfiguration(SECTION) && !e.affectsConfiguration(`${SECTION}.validation`) && !e.affectsConfiguration(`${SECTION}.trace`);
  }

  dispose(): void {
    this.runtimeSub?.dispose();
    this.mcp.dispose();
    void this.current?.runtime.flush();
    this.skillsChanged.dispose();
    this.sessionsChanged.dispose();
    this.scannedEmitter.dispose();
  }
}

function sessionLabel(id: string): string {
  return id.startsWith(WINDOW_SESSION_PREFIX) ? 'window session' : `session ${id.slice(0, 8)}`;
}
