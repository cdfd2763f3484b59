// "Sessions": one node per chat session (the window's agent session shown as such), its active skills
// in load order below it.
import * as vscode from 'vscode';
import type { ActiveSkill, SessionState } from '../../core/runtime/runtimeTypes';
import { WINDOW_SESSION_PREFIX } from '../ids';
import type { SkillsService } from '../skillsService';

export type SessionNode = { kind: 'session'; session: SessionState } | { kind: 'active'; sessionId: string; skill: ActiveSkill; index: number };

export class SessionsTreeProvider implements vscode.TreeDataProvider<SessionNode> {
  private readonly changed = new vscode.EventEmitter<SessionNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly service: SkillsService) {
    service.onDidChangeSessions(() => this.changed.fire(undefined));
  }

  /** Sessions shown: every @skills conversation, plus the window session once used. Newest first. */
  async sessions(): Promise<SessionState[]> {
    const { runtime } = await this.service.ready();
    return runtime.sessions.list().sort((a, b) => b.updated_at.localeCompare(a.updated_at));
  }

  label(s: SessionState): string {
    if (s.id.startsWith(WINDOW_SESSION_PREFIX)) return 'Copilot agent (this window)';
    return this.service.sessionTitle(s.id) ?? `Chat ${s.id.slice(0, 8)}`;
  }

  async getChildren(node?: SessionNode): Promise<SessionNode[]> {
    if (!node) return (await this.sessions()).map((session) => ({ kind: 'session', session }));
    if (node.kind === 'active') return [];
    const { runtime } = await this.service.ready();
    const s = runtime.sessions.get(node.session.id) ?? node.session;
    return s.active_skills.map((skill, index) => ({ kind: 'active', sessionId: s.id, skill, index }));
  }

  getTreeItem(node: SessionNode): vscode.TreeItem {
    if (node.kind === 'session') {
      const s = node.session;
      const n = s.active_skills.length;
      const item = new vscode.TreeItem(this.label(s), n ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
      item.id = `session:${s.id}`;
      item.description = `${n} active · ${s.load_mode}`;
      item.contextValue = s.id.startsWith(WINDOW_SESSION_PREFIX) ? 'session.window' : 'session.chat';
      item.iconPath = new vscode.ThemeIcon(s.id.startsWith(WINDOW_SESSION_PREFIX) ? 'copilot' : 'comment-discussion');
      item.tooltip = `Session ${s.id}\nTurn ${s.turn}, load mode ${s.load_mode}\nUpdated ${s.updated_at}`;
      return item;
    }
    const a = node.skill;
    const item = new vscode.TreeItem(a.name, vscode.TreeItemCollapsibleState.None);
    item.id = `active:${node.sessionId}:${a.name}`;
    const docs = a.docs === '*' ? 'all docs' : a.docs.length ? `${a.docs.length} doc(s)` : '';
    item.description = [`#${node.index + 1}`, docs, a.offloaded ? 'offloaded' : ''].filter(Boolean).join(' · ');
    item.contextValue = 'activeSkill';
    item.resourceUri = vscode.Uri.file(a.location);
    item.iconPath = new vscode.ThemeIcon('pass-filled');
    item.tooltip = `${a.name} (${a.id})\nLoaded ${a.loaded_at}\n${a.location}`;
    return item;
  }
}
