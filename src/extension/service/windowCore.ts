// The lifecycle of the window's core: the registry is scanned on first use (views need only that), the
// runtime and runner are built beside it, and a settings or trust change rescans the roots and rebuilds the
// runtime over the same sessions folder.
import type * as vscode from 'vscode';
import type { SandboxStatus } from '../../core/exec/sandboxStatus';
import type { SkillIndex } from '../../core/registry/skillRegistry';
import type { SkillTools } from '../../core/runtime/skillTools';
import type { SessionEvent } from '../../core/runtime/runtimeTypes';
import type { RuntimeSettings } from '../settings';
import * as vscodeApi from 'vscode';
import type { McpSkillServers } from '../mcpSkillServers';
import type { SyncWritableHost } from '../../core/host/fileWrites';
import { createAgentSkills, type AgentSkills } from '../../core/agentSkills';
import type { SkillRecord, SkillRoot } from '../../core/registry/registryTypes';
import { windowCoreInit, windowRuntimeConfig, type CatalogProvider } from './runtimeWiring';
import { reportedPackMount } from '../skillPacks';

/** How long a scan waits for the configured skill packs; a first download takes longer and lands later. */
const QUICK_PACK_MOUNT_MS = 1500;
import { workspaceFolders, type WindowRoots } from './windowRoots';

/** What the lifecycle needs from the service that owns it. */
export interface WindowCoreDeps {
  roots: WindowRoots;
  settings(): RuntimeSettings;
  stateDir(): string;
  catalog(): CatalogProvider | undefined;
  log: vscode.LogOutputChannel;
  skillsChanged(): void;
  sessionsChanged(e: SessionEvent): void;
  scanned(registry: SkillIndex): void;
  /** The servers of agentSkills.mcpServers, whose skills the runtime serves beside the registry's. */
  mcp: McpSkillServers;
  /** Where Agent Plugins keep their data folders (scripts' and MCP servers' PLUGIN_DATA). */
  pluginDataRoot(): string;
}

export class WindowCore {
  private state: Promise<{ registry: SkillIndex; runtime: SkillTools }> | undefined;
  private scanned: Promise<SkillIndex> | undefined;
  private scannedRegistry: SkillIndex | undefined;
  private runtimeSub: { dispose(): void } | undefined;
  private current: { registry: SkillIndex; runtime: SkillTools } | undefined;
  /** The window's one assembly of the core (its roots are set at the first scan). */
  private readonly assembled: AgentSkills;

  /**
   * The window's one file access, for the registry, catalog, runtime and runner alike: the local disk, with the
   * roots of skills contributed one by one (chatSkills) showing only those folders.
   */
  readonly host: SyncWritableHost;

  constructor(private readonly deps: WindowCoreDeps) {
    const init = windowCoreInit({ stateDir: deps.stateDir(), plugins: () => deps.roots.pluginSkills(), mcp: deps.mcp, packs: () => deps.roots.packSpecs(), mountPack: reportedPackMount(deps.log) });
    this.assembled = createAgentSkills({ ...init, logger: deps.log });
    this.host = this.assembled.host;
  }

  /** The MCP servers' skills as the runtime serves them (ids `mcp:<server>:<skill>`, under their id when a name is taken). */
  mcpRecords(): SkillRecord[] {
    return this.assembled.served().filter((r) => r.scope === 'mcp');
  }

  ready(): Promise<{ registry: SkillIndex; runtime: SkillTools }> {
    this.state ??= this.create();
    return this.state;
  }

  registryReady(): Promise<SkillIndex> {
    this.scanned ??= this.scan();
    return this.scanned;
  }

  peekRegistry(): SkillIndex | undefined {
    return this.scannedRegistry;
  }

  peek(): { registry: SkillIndex; runtime: SkillTools } | undefined {
    return this.current;
  }

  async sandboxStatus(): Promise<SandboxStatus> {
    // The runner of the current runtime: it owns the sandbox decision the confirmation shows.
    await this.ready();
    return this.assembled.sandboxStatus();
  }

  resolveRunRef(ref: string): string | undefined {
    return this.current ? this.assembled.resolveRunRef(ref) : undefined;
  }

  /** The window's core (its registry, catalogs, runner and runtime); assembled at the first scan. */
  async core(): Promise<AgentSkills> {
    await this.registryReady();
    return this.assembled;
  }

  /**
   * Mounts the packs of the settings when they changed since the last mount. Packs on disk (and downloads already
   * cached) mount in a moment and are waited for; a first download is not: the skills scan without it, and the
   * roots are applied again when it lands (with its progress shown).
   */
  private async mountPacks(): Promise<void> {
    const mounting = this.assembled.prepareSources();
    let timer: NodeJS.Timeout | undefined;
    const landed = await Promise.race([mounting.then(() => true, () => true), new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), QUICK_PACK_MOUNT_MS)))]);
    clearTimeout(timer);
    if (landed) return;
    this.deps.log.info('A skill pack is still downloading; the other skills are listed now, and the pack joins them when it is installed.');
    void mounting.then(() => this.applyRoots()).catch((e: unknown) => this.deps.log.error(`Adding the downloaded skill packs failed: ${e instanceof Error ? e.message : String(e)}`));
  }

  /** The folders of the core's sources (the mounted packs) as of the last mount. */
  sourceRoots(): SkillRoot[] {
    return this.assembled.sourceRoots();
  }

  private async scan(): Promise<SkillIndex> {
    await this.mountPacks();
    const registry = this.assembled.skills;
    registry.onDidChange(() => this.deps.skillsChanged());
    const snap = await this.assembled.refresh(this.deps.roots.roots());
    this.deps.log.info(`Found ${snap.records.length} skill(s) in ${snap.roots.length} folder(s) in ${snap.stats.durationMs.toFixed(0)} ms.`);
    this.scannedRegistry = registry;
    this.deps.scanned(registry);
    return registry;
  }

  private async create(): Promise<{ registry: SkillIndex; runtime: SkillTools }> {
    const registry = await this.registryReady();
    // The catalog shares the registry; opening it reads the overlays, so the first load already serves them.
    await this.deps.catalog()?.ready().catch(() => undefined);
    if (await this.deps.mcp.update(this.deps.settings().mcpServers, vscodeApi.workspace.isTrusted, this.deps.roots.pluginMcpServers(this.deps.pluginDataRoot()))) this.deps.skillsChanged();
    const runtime = await this.createRuntime(registry);
    this.current = { registry, runtime };
    return this.current;
  }

  /** Gives the core the settings' runner and runtime options (flushing the runtime they replace) and builds them. */
  private async createRuntime(registry: SkillIndex): Promise<SkillTools> {
    const core = this.assembled;
    const config = windowRuntimeConfig({ registry, settings: this.deps.settings(), stateDir: this.deps.stateDir(), workspaceDir: workspaceFolders()[0], catalog: () => this.deps.catalog(), pluginDataDir: this.deps.pluginDataRoot() });
    await core.reconfigure(config);
    const runtime = core.tools();
    for (const p of runtime.sessions.loadProblems) this.deps.log.warn(`Session file ${p.file} was not loaded: ${p.problem}`);
    this.runtimeSub?.dispose();
    this.runtimeSub = runtime.onDidChange((e) => this.deps.sessionsChanged(e));
    return runtime;
  }

  /** Rescans the roots once scanned, and reopens the catalog over them so the runtime reads the new skills' overlays. */
  async rescanRoots(): Promise<void> {
    if (!this.scanned) return;
    await this.scanned;
    await this.assembled.refresh(this.deps.roots.roots());
    this.deps.skillsChanged();
    await this.deps.catalog()?.ready().catch(() => undefined);
  }

  /** Whether the runtime was asked for (MCP servers are connected only then). */
  get started(): boolean {
    return this.state !== undefined;
  }

  /** The roots may have changed (settings, trust, a pack that landed): rescan them and serve the result. */
  async applyRoots(): Promise<void> {
    if (!this.scanned) return;
    const registry = await this.scanned;
    await this.mountPacks();
    await this.assembled.refresh(this.deps.roots.roots());
    this.deps.skillsChanged();
    // Reopen the catalog over the new roots now (new or removed packs), so the runtime serves them at once.
    await this.deps.catalog()?.ready().catch(() => undefined);
    if (!this.state) return;
    await this.state;
    const next = await this.createRuntime(registry);
    this.current = { registry, runtime: next };
    this.state = Promise.resolve(this.current);
    this.deps.sessionsChanged({ kind: 'updated', sessionId: '', reason: 'reconfigure' });
  }

  /** Rereads one skill folder of one of our roots (created, changed or deleted); ignores anything else. */
  async refreshSkillDir(dir: string): Promise<void> {
    if (!this.scanned) return;
    await this.scanned;
    await this.assembled.refreshSkill(dir);
  }

  /** Rescans every root. */
  async refresh(): Promise<void> {
    await this.registryReady();
    await this.assembled.refresh();
    this.deps.skillsChanged();
  }

  dispose(): void {
    this.runtimeSub?.dispose();
    void this.assembled.dispose();
  }
}
