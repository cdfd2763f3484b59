import * as vscode from 'vscode';
import { COMMANDS, VIEWS, WINDOW_SESSION_PREFIX } from '../ids';
import type { SkillsService } from '../skillsService';
import { AvailableTreeProvider, type AvailableNode } from './availableTree';
import { SessionsTreeProvider, type SessionNode } from './sessionsTree';

/** What the commands need from the views. */
export interface SkillsTree {
  available: AvailableTreeProvider;
  sessions: SessionsTreeProvider;
  /** The session the inline "load" acts on: the one selected in Sessions, else the latest chat session. */
  targetSessionId(): Promise<string | undefined>;
}

/** A tree node as plain JSON, for tests and automation (`agentSkills.describeTree`). */
export interface DescribedNode {
  label: string;
  description?: string;
  contextValue?: string;
  /** The hover text (a MarkdownString's source, or plain text). */
  tooltip?: string;
  node: AvailableNode | SessionNode;
  children: DescribedNode[];
}

async function describe<T extends AvailableNode | SessionNode>(provider: vscode.TreeDataProvider<T>, node?: T): Promise<DescribedNode[]> {
  const children = (await provider.getChildren(node)) ?? [];
  const out: DescribedNode[] = [];
  for (const c of children) {
    const item = await provider.getTreeItem(c);
    const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
    const tooltip = typeof item.tooltip === 'string' ? item.tooltip : item.tooltip?.value;
    out.push({ label, description: typeof item.description === 'string' ? item.description : undefined, contextValue: item.contextValue, tooltip, node: c, children: await describe(provider, c) });
  }
  return out;
}

/** Creates the two views, the badge and the tree commands. */
export function registerTree(context: vscode.ExtensionContext, service: SkillsService): SkillsTree {
  const available = new AvailableTreeProvider(service);
  const sessions = new SessionsTreeProvider(service);
  const availableView = vscode.window.createTreeView(VIEWS.available, { treeDataProvider: available, showCollapseAll: true });
  const sessionsView = vscode.window.createTreeView(VIEWS.sessions, { treeDataProvider: sessions });
  let selected: string | undefined;
  sessionsView.onDidChangeSelection((e) => {
    const n = e.selection[0];
    if (n) selected = n.kind === 'session' ? n.session.id : n.sessionId;
  });
  const updateBadge = () => {
    const rt = service.peek()?.runtime;
    if (!rt) return;
    const list = rt.sessions.list();
    const count = list.reduce((n, s) => n + s.active_skills.length, 0);
    const badge = count ? { value: count, tooltip: `${count} skill(s) active in ${list.filter((s) => s.active_skills.length).length} session(s)` } : undefined;
    // On one view only: the container's badge is the sum of its views' badges.
    sessionsView.badge = badge;
  };
  service.onDidChangeSessions(updateBadge);
  service.onDidChangeSkills(updateBadge);

  const tree: SkillsTree = {
    available,
    sessions,
    async targetSessionId() {
      const all = await sessions.sessions();
      if (selected && all.some((s) => s.id === selected)) return selected;
      return all.find((s) => !s.id.startsWith(WINDOW_SESSION_PREFIX))?.id;
    },
  };
  context.subscriptions.push(
    availableView,
    sessionsView,
    vscode.commands.registerCommand(COMMANDS.refresh, () => service.refresh()),
    vscode.commands.registerCommand(COMMANDS.describeTree, async () => ({ available: await describe(available), sessions: await describe(sessions) })),
  );
  return tree;
}
