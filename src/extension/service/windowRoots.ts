// The skill roots of this window: the workspace folders (when trusted), the home folder, extra roots from
// settings, skills other extensions contribute, and the mounted `agentSkills.packs`.
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpLaunch } from '../../core/mcp/mcpLaunch';
import { cachedPluginMcpReader, installedPlugins, pluginMcpNotices, pluginMcpServers, pluginsAt, pluginSkillRoots, PluginShelf, type LocatedPlugin } from '../../core/plugins';
import type { PluginContributions } from '../../core/registry/pluginContributions';
import { dedupeRoots, defaultSkillRoots } from '../../core/registry/defaultSkillRoots';
import type { SkillRoot } from '../../core/registry/registryTypes';
import { readPluginContributions } from '../pluginSkills';
import type { PackSpec } from '../../core/catalog/catalogTypes';
import { resolvePackSpecs } from '../packSpecs';
import { resolveExtraRoots } from '../extraRoots';
import type { RuntimeSettings } from '../settings';
import { fileProblemKey, ReportOnce } from '../../core/reportOnce';

/** The file-scheme workspace folders of this window. */
export function workspaceFolders(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

/** Folders VS Code's `chat.pluginLocations` names (an object of folder to on/off; `~/` and `file:` URIs allowed). */
function vscodePluginLocations(): string[] {
  const raw = vscode.workspace.getConfiguration('chat').get<unknown>('pluginLocations');
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return [];
  const out: string[] = [];
  for (const [loc, on] of Object.entries(raw as Record<string, unknown>)) {
    if (on !== true) continue;
    const p = loc.startsWith('file:') ? vscode.Uri.parse(loc).fsPath : loc.startsWith('~/') || loc === '~' ? path.join(os.homedir(), loc.slice(2)) : loc;
    if (path.isAbsolute(p)) out.push(p);
  }
  return out;
}

export class WindowRoots {
  private plugins: PluginContributions | undefined;
  /** Agent Plugins read on every scan (unchanged ones are not read again; each problem is logged once). */
  private readonly shelf = new PluginShelf();
  private agentPluginsRead: LocatedPlugin[] = [];
  private readonly reportedMcp = new ReportOnce();
  /** Reads a plugin's mcp.json again only when it or the plugin changed. */
  private readonly readMcp = cachedPluginMcpReader();
  private lastRoots: SkillRoot[] | undefined;
  /** The resolved `agentSkills.packs` last asked for (their ignored entries are logged when it changes). */
  private packKey = '';
  private extraKey = '';

  constructor(
    private readonly settings: () => RuntimeSettings,
    private readonly stateDir: () => string,
    private readonly log: vscode.LogOutputChannel,
    /** VS Code's user folder (`<user data>/User`), where it records the agent plugins it installed. */
    private readonly userDir: () => string | undefined = () => undefined,
    /** The folders of the core's sources (the mounted packs), scanned beside these roots. */
    private readonly sourceRoots: () => readonly SkillRoot[] = () => [],
  ) {}

  /**
   * The MCP servers of the last scan's plugins (their mcp.json) that `agentSkills.plugins.enabledMcpServers` names:
   * no other is ever started. Configuration problems are logged once.
   */
  pluginMcpServers(dataRoot: string): McpLaunch[] {
    const { configs, problems } = pluginMcpServers(this.agentPluginsRead, dataRoot, { read: this.readMcp, enabled: this.settings().enabledPluginMcpServers });
    for (const p of this.reportedMcp.fresh(problems, fileProblemKey)) this.log.warn(`Agent plugin: ${p.message} (${p.rule})`);
    return configs;
  }

  /** Per plugin root, a line saying which MCP servers it declares that are not started and how to start them. */
  pluginMcpNotices(dataRoot: string): Map<string, string> {
    const { declared } = pluginMcpServers(this.agentPluginsRead, dataRoot, { read: this.readMcp, enabled: this.settings().enabledPluginMcpServers });
    const out = new Map<string, string>();
    for (const p of this.agentPluginsRead) {
      const name = p.manifest?.name;
      const [line] = pluginMcpNotices(declared.filter((d) => d.plugin === name), (server) => `add "${server}" to the setting agentSkills.plugins.enabledMcpServers`);
      if (line) out.set(p.root, line);
    }
    return out;
  }

  /** The Agent Plugins of the last scan (rejected ones included, with their problems), for the Skills view. */
  agentPlugins(): readonly LocatedPlugin[] {
    return this.agentPluginsRead;
  }

  /**
   * Reads the Agent Plugins every host installed (VS Code, Copilot CLI, Claude Code) and those the settings name
   * (`chat.pluginLocations`, `agentSkills.pluginLocations`). Not tied to workspace trust, except that relative
   * entries of our setting (resolved against the workspace) are read only in a trusted workspace.
   */
  private readAgentPlugins(): LocatedPlugin[] {
    const userDir = this.userDir();
    const ws = vscode.workspace.isTrusted ? workspaceFolders()[0] : undefined;
    const ours = this.settings()
      .pluginLocations.map((p) => (p === '~' || p.startsWith('~/') ? path.join(os.homedir(), p.slice(2)) : path.isAbsolute(p) ? p : ws ? path.resolve(ws, p) : undefined))
      .filter((p): p is string => p !== undefined);
    const { plugins, fresh } = this.shelf.read([
      ...pluginsAt(ours, 'config'),
      ...pluginsAt(vscodePluginLocations(), 'vscode'),
      ...installedPlugins({ homeDir: os.homedir(), vscodeInstalledFiles: userDir ? [path.join(userDir, 'agent-plugins', 'installed.json')] : [] }),
    ]);
    for (const p of fresh) (p.severity === 'error' ? this.log.warn : this.log.info).call(this.log, `Agent plugin: ${p.message} (${p.rule})`);
    this.agentPluginsRead = plugins;
    return plugins;
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

  /** Rereads the extensions' contributions; true when their roots or chosen skill folders changed. */
  rereadPluginSkills(): boolean {
    const before = this.plugins;
    this.plugins = undefined;
    const after = this.pluginSkills();
    const key = (c: PluginContributions | undefined) => JSON.stringify([c?.roots, [...(c?.only ?? [])].map(([k, v]) => [k, [...v].sort()])]);
    return key(before) !== key(after);
  }

  /** Roots of sources that need trust (the workspace's) only in a trusted workspace; the others always. */
  roots(): SkillRoot[] {
    const trusted = vscode.workspace.isTrusted;
    const resolved = resolveExtraRoots(this.settings().extraRoots, { trusted, workspaceFolder: workspaceFolders()[0] });
    const extraKey = JSON.stringify(resolved.ignored);
    if (extraKey !== this.extraKey) for (const line of resolved.ignored) this.log.warn(line);
    this.extraKey = extraKey;
    const extra = resolved.roots;
    const packRoots = this.sourceRoots().map((r) => ({ path: r.path, scope: r.scope, source: r.source }));
    // In precedence order (dedupeRoots sorts by the sources' ranks): plugin skills rank below the user's own.
    this.lastRoots = dedupeRoots([
      ...defaultSkillRoots({ workspaceFolders: trusted ? workspaceFolders() : [], homeDir: os.homedir(), extraRoots: [...extra, ...packRoots], pluginRoots: this.pluginSkills().roots }),
      ...pluginSkillRoots(this.readAgentPlugins()),
    ]);
    return this.lastRoots;
  }

  /** The roots of the last scan (no plugin or settings read): for those that only follow what the scan found. */
  scannedRoots(): SkillRoot[] {
    return this.lastRoots ?? this.roots();
  }

  /**
   * The packs of `agentSkills.packs` (mounted by the core's pack source into `<stateDir>/packs`, again only when
   * these change). Trust decides whether workspace-relative paths count; ignored entries are logged once per change.
   */
  packSpecs(): PackSpec[] {
    const resolved = resolvePackSpecs(this.settings().packs, { trusted: vscode.workspace.isTrusted, workspaceFolder: workspaceFolders()[0] });
    const key = JSON.stringify(resolved.specs);
    if (key !== this.packKey) for (const line of resolved.ignored) this.log.warn(line);
    this.packKey = key;
    return resolved.specs;
  }
}
