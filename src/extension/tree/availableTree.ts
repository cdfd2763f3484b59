// "Available": the registry's skills grouped by scope, with their description; broken skills with their
// first problem, shadowed and ambiguous ones said as such. contextValue drives the inline actions.
import * as vscode from 'vscode';
import type { SkillRecord, SkillScope } from '../../core/registry/types';
import { allSources, sourceOf } from '../../core/sources';
import { COMMANDS } from '../ids';
import type { SkillsService } from '../skillsService';

/** A scope group or a skill. */
export type AvailableNode = { kind: 'scope'; scope: SkillScope; records: SkillRecord[] } | { kind: 'skill'; record: SkillRecord };


function firstProblem(r: SkillRecord): string {
  const d = r.diagnostics.find((x) => x.severity === 'error') ?? r.diagnostics[0];
  return d?.message ?? 'invalid';
}

const SEVERITY_RANK: Record<string, number> = { error: 0, warning: 1, info: 2, hint: 3 };

/** Errors first (what makes the skill unusable), then warnings, infos, hints; stable within a severity. */
export function bySeverity<D extends { severity: string }>(diagnostics: readonly D[]): D[] {
  return [...diagnostics].sort((a, b) => (SEVERITY_RANK[a.severity] ?? 9) - (SEVERITY_RANK[b.severity] ?? 9));
}

export class AvailableTreeProvider implements vscode.TreeDataProvider<AvailableNode> {
  private readonly changed = new vscode.EventEmitter<AvailableNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly service: SkillsService) {
    service.onDidChangeSkills(() => this.changed.fire(undefined));
  }

  async getChildren(node?: AvailableNode): Promise<AvailableNode[]> {
    if (node?.kind === 'skill') return [];
    if (node?.kind === 'scope') return node.records.map((record) => ({ kind: 'skill', record }));
    const registry = await this.service.registryReady();
    const records = [...registry.all(), ...(await this.service.mcpRecords(registry))];
    await vscode.commands.executeCommand('setContext', 'agentSkills.scanned', true);
    const groups: AvailableNode[] = [];
    // One group per source kind, in precedence order.
    const byKind = new Map<string, SkillRecord[]>();
    for (const r of records) byKind.set(r.scope, [...(byKind.get(r.scope) ?? []), r]);
    for (const { name } of allSources()) {
      const inScope = byKind.get(name);
      if (inScope) groups.push({ kind: 'scope', scope: name as SkillScope, records: inScope });
    }
    return groups;
  }

  getTreeItem(node: AvailableNode): vscode.TreeItem {
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
