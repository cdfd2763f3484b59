// "Available": the registry's skills grouped by scope, with their description; broken skills with their
// first problem, shadowed and ambiguous ones said as such. contextValue drives the inline actions.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LocatedPlugin } from '../../core/plugins';
import type { SkillRecord, SkillScope } from '../../core/registry/registryTypes';
import { allSources, sourceOf } from '../../core/sources';
import { COMMANDS } from '../ids';
import type { SkillsService } from '../skillsService';
import { HIDDEN_SKILLS_KEY, hiddenSkillsMessage, hiddenWorkspaceSkills, MANAGE_TRUST_COMMAND, MANAGE_TRUST_LABEL } from '../trust';

/** A scope group, an Agent Plugin (under Plugins), a skill, or a problem line (a plugin's, a server that is down). */
export type AvailableNode =
  | { kind: 'scope'; scope: SkillScope; records: SkillRecord[] }
  | { kind: 'plugin'; plugin: LocatedPlugin; records: SkillRecord[] }
  | { kind: 'skill'; record: SkillRecord }
  | { kind: 'problem'; id: string; label: string; detail: string; severity: 'error' | 'warning' | 'info' }
  /** The workspace's skills that the missing trust hides: a click opens Manage Workspace Trust. */
  | { kind: 'untrusted'; hidden: number };


function firstProblem(r: SkillRecord): string {
  const d = r.diagnostics.find((x) => x.severity === 'error') ?? r.diagnostics[0];
  return d?.message ?? 'invalid';
}

/** One node per plugin read (rejected ones too), each with the skills of the scan that came from it. */
function pluginNodes(plugins: readonly LocatedPlugin[], records: readonly SkillRecord[]): AvailableNode[] {
  return plugins.map((plugin) => ({ kind: 'plugin', plugin, records: records.filter((r) => r.root.plugin?.root === plugin.root) }));
}

/** What the reader refused of a plugin (the plugin itself, a skills location, a skill), one line each. */
function pluginProblems(plugin: LocatedPlugin): AvailableNode[] {
  return plugin.problems.map((p, i) => ({ kind: 'problem', id: `${plugin.root}#${i}`, label: path.basename(p.file), detail: `${p.message} (${p.rule})`, severity: p.severity }));
}

/** A plugin: its name and version, the hosts that installed it, and why it was rejected when it was. */
function pluginItem(plugin: LocatedPlugin, skills: number): vscode.TreeItem {
  const m = plugin.manifest;
  const item = new vscode.TreeItem(m?.name ?? path.basename(plugin.root), vscode.TreeItemCollapsibleState.Expanded);
  item.id = `plugin:${plugin.root}`;
  const hosts = `installed by ${plugin.hosts.map((h) => HOST_LABELS[h] ?? h).join(', ')}`;
  const rejected = plugin.problems.find((p) => p.severity === 'error' && !m);
  item.description = rejected ? `not loaded: ${rejected.message}` : `${m?.version ? `v${m.version} · ` : ''}${hosts} · ${skills} skill(s)`;
  item.tooltip = new vscode.MarkdownString(`**${item.label as string}**${m?.version ? ` ${m.version}` : ''}\n\n${m?.description ?? ''}\n\n${hosts}\n\n\`${plugin.root}\``);
  item.contextValue = rejected ? 'plugin.rejected' : 'plugin';
  item.resourceUri = vscode.Uri.file(plugin.root);
  item.iconPath = rejected ? new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground')) : new vscode.ThemeIcon('extensions');
  return item;
}

/** How the Skills view names the hosts that install plugins. */
const HOST_LABELS: Record<string, string> = { vscode: 'VS Code', 'claude-code': 'Claude Code', 'copilot-cli': 'Copilot CLI', config: 'your settings' };

const SEVERITY_RANK: Record<string, number> = { error: 0, warning: 1, info: 2, hint: 3 };

/** Errors first (what makes the skill unusable), then warnings, infos, hints; stable within a severity. */
export function bySeverity<D extends { severity: string }>(diagnostics: readonly D[]): D[] {
  return [...diagnostics].sort((a, b) => (SEVERITY_RANK[a.severity] ?? 9) - (SEVERITY_RANK[b.severity] ?? 9));
}

/** The line that says the workspace's skills are hidden until the folder is trusted; a click opens Manage Workspace Trust. */
function untrustedItem(hidden: number): vscode.TreeItem {
  const item = new vscode.TreeItem(hiddenSkillsMessage(hidden), vscode.TreeItemCollapsibleState.None);
  item.id = 'untrusted';
  item.tooltip = `${MANAGE_TRUST_LABEL}: skills of an untrusted workspace are not listed, loaded or run (Restricted Mode).`;
  item.contextValue = 'untrusted';
  item.iconPath = new vscode.ThemeIcon('workspace-untrusted');
  item.command = { command: MANAGE_TRUST_COMMAND, title: MANAGE_TRUST_LABEL };
  return item;
}

export class AvailableTreeProvider implements vscode.TreeDataProvider<AvailableNode> {
  private readonly changed = new vscode.EventEmitter<AvailableNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly service: SkillsService) {
    service.onDidChangeSkills(() => this.changed.fire(undefined));
  }

  async getChildren(node?: AvailableNode): Promise<AvailableNode[]> {
    if (node?.kind === 'skill' || node?.kind === 'problem' || node?.kind === 'untrusted') return [];
    if (node?.kind === 'plugin') {
      // A plugin's MCP servers are never started by reading it: the line says which it declares and how to enable them.
      const notice = this.service.pluginMcpNotices().get(node.plugin.root);
      const mcp: AvailableNode[] = notice ? [{ kind: 'problem', id: `${node.plugin.root}#mcp`, label: 'MCP servers not started', detail: notice, severity: 'info' }] : [];
      return [...node.records.map((record): AvailableNode => ({ kind: 'skill', record })), ...pluginProblems(node.plugin), ...mcp];
    }
    if (node?.kind === 'scope' && sourceOf(node.scope).name === 'agent-plugin') return pluginNodes(this.service.agentPlugins(), node.records);
    if (node?.kind === 'scope' && sourceOf(node.scope).name === 'mcp') {
      const down = this.service.mcpServerProblems().map((p): AvailableNode => ({ kind: 'problem', id: `mcp:${p.server}`, label: p.server, detail: p.reason, severity: 'warning' }));
      return [...node.records.map((record): AvailableNode => ({ kind: 'skill', record })), ...down];
    }
    if (node?.kind === 'scope') return node.records.map((record) => ({ kind: 'skill', record }));
    const registry = await this.service.registryReady();
    const records = [...registry.all(), ...(await this.service.mcpRecords())];
    const hidden = await hiddenWorkspaceSkills();
    await vscode.commands.executeCommand('setContext', HIDDEN_SKILLS_KEY, hidden > 0);
    await vscode.commands.executeCommand('setContext', 'agentSkills.scanned', true);
    // With other skills listed the view's welcome content does not show: a first line says what trust hides.
    const groups: AvailableNode[] = hidden && records.length ? [{ kind: 'untrusted', hidden }] : [];
    // One group per source kind, in precedence order.
    const byKind = new Map<string, SkillRecord[]>();
    for (const r of records) byKind.set(r.scope, [...(byKind.get(r.scope) ?? []), r]);
    // Plugins and MCP servers show even without a usable skill: a rejected plugin or a server that is down says why.
    if (this.service.agentPlugins().length && !byKind.has('agent-plugin')) byKind.set('agent-plugin', []);
    if (this.service.mcpServerProblems().length && !byKind.has('mcp')) byKind.set('mcp', []);
    for (const { name } of allSources()) {
      const inScope = byKind.get(name);
      if (inScope) groups.push({ kind: 'scope', scope: name as SkillScope, records: inScope });
    }
    return groups;
  }

  getTreeItem(node: AvailableNode): vscode.TreeItem {
    if (node.kind === 'untrusted') return untrustedItem(node.hidden);
    if (node.kind === 'plugin') return pluginItem(node.plugin, node.records.length);
    if (node.kind === 'problem') {
      const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
      item.id = `problem:${node.id}`;
      item.description = node.detail;
      item.tooltip = node.detail;
      item.contextValue = 'problem';
      item.iconPath = new vscode.ThemeIcon(node.severity, new vscode.ThemeColor(node.severity === 'error' ? 'problemsErrorIcon.foreground' : node.severity === 'warning' ? 'problemsWarningIcon.foreground' : 'problemsInfoIcon.foreground'));
      return item;
    }
    if (node.kind === 'scope') {
      const item = new vscode.TreeItem(sourceOf(node.scope).label, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `scope:${sourceOf(node.scope).scopeWord}`;
      item.description = `${node.records.length}`;
      item.contextValue = 'scope';
      return item;
    }
    const r = node.record;
    const item = new vscode.TreeItem(r.name, vscode.TreeItemCollapsibleState.None);
    item.id = `skill:${r.id}`;
    item.resourceUri = vscode.Uri.file(r.location);
    item.contextValue = `skill.${r.status}`;
    const fromServer = sourceOf(r.scope).name === 'mcp' ? r.root.source : undefined;
    // An MCP-served skill has no file until it is first used: it names its server instead of opening a path.
    if (!fromServer) item.command = { command: COMMANDS.openSkillFile, title: 'Open SKILL.md', arguments: [node] };
    const where = fromServer ? `served by MCP server '${fromServer}' (read-only, never run here)` : `\`${r.location}\``;
    const tip = new vscode.MarkdownString(`**${r.name}** (${r.id})\n\n${r.description || '_no description_'}\n\n${where}`);
    switch (r.status) {
      case 'ok':
        item.description = fromServer ? `${fromServer}: ${r.description}` : r.description;
        item.iconPath = new vscode.ThemeIcon('book');
        break;
      case 'broken':
        item.description = `broken: ${firstProblem(r)}`;
        item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground'));
        tip.appendMarkdown(`\n\n${bySeverity(r.diagnostics).map((d) => `- ${d.severity}: ${d.message}`).join('\n')}`);
        break;
      case 'shadowed':
        item.description = `shadowed by ${r.shadowedBy ?? 'another skill'}`;
        item.iconPath = new vscode.ThemeIcon('eye-closed');
        break;
      case 'ambiguous':
        item.description = `ambiguous with ${(r.ambiguousWith ?? []).join(', ')}`;
        item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
        break;
    }
    item.tooltip = tip;
    return item;
  }
}
