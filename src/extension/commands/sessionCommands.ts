// Load and unload skills into chat sessions, from the tree's inline actions or the command palette.
import * as vscode from 'vscode';
import { COMMANDS, WINDOW_SESSION_PREFIX } from '../ids';
import type { SkillsService } from '../skillsService';
import { isActiveNode, isSessionNode, isSkillNode } from '../tree/nodes';
import type { SkillsTree } from '../tree/registerTree';
import { sourceOf } from '../../core/sources';

async function pickSession(service: SkillsService, tree: SkillsTree, placeHolder: string): Promise<string | undefined> {
  const sessions = await tree.sessions.sessions();
  const items = sessions.map((s) => ({ label: tree.sessions.label(s), description: `${s.active_skills.length} active`, id: s.id }));
  if (!sessions.some((s) => s.id.startsWith(WINDOW_SESSION_PREFIX))) items.push({ label: 'Copilot agent (this window)', description: 'new', id: `${WINDOW_SESSION_PREFIX}agent` });
  if (items.length === 1) return items[0].id;
  return (await vscode.window.showQuickPick(items, { placeHolder }))?.id;
}

async function pickSkill(service: SkillsService, placeHolder: string): Promise<string | undefined> {
  const { registry } = await service.ready();
  const items = registry.usable().map((r) => ({ label: r.name, description: sourceOf(r.scope).scopeWord, detail: r.description }));
  if (!items.length) {
    void vscode.window.showInformationMessage('No usable skills found. Create one with "Agent Skills: Create Skill".');
    return undefined;
  }
  return (await vscode.window.showQuickPick(items, { placeHolder, matchOnDetail: true }))?.label;
}

function report(r: { ok: boolean; error?: { message: string; hint: string } }): void {
  if (!r.ok && r.error) void vscode.window.showErrorMessage(`${r.error.message} ${r.error.hint}`);
}

/**
 * Load: on a skill of "Available" into the selected (or latest) session; on a session node, a skill picked
 * for it; from the palette, both picked. An explicit session node as second argument wins (automation).
 */
async function loadSkill(service: SkillsService, tree: SkillsTree, node?: unknown, target?: unknown): Promise<void> {
  let sessionId = isSessionNode(target) ? target.session.id : isSessionNode(node) ? node.session.id : undefined;
  const name = isSkillNode(node) ? node.record.name : await pickSkill(service, sessionId ? 'Skill to load into this session' : 'Skill to load');
  if (!name) return;
  sessionId ??= (isSkillNode(node) ? await tree.targetSessionId() : undefined) ?? (await pickSession(service, tree, `Session to load ${name} into`));
  if (!sessionId) return;
  report(await service.loadByUser(sessionId, name));
}

/** Unload: an active skill node from its session; on a session node, all of its skills; else picked. */
async function unloadSkill(service: SkillsService, tree: SkillsTree, node?: unknown): Promise<void> {
  if (isActiveNode(node)) return report(await service.unloadByUser(node.sessionId, [node.skill.name]));
  if (isSessionNode(node)) return report(await service.unloadByUser(node.session.id, 'all'));
  const sessionId = await pickSession(service, tree, 'Session to unload a skill from');
  if (!sessionId) return;
  const { runtime } = await service.ready();
  const active = runtime.sessions.get(sessionId)?.active_skills ?? [];
  if (!active.length) return void vscode.window.showInformationMessage('No skill is loaded in that session.');
  const pick = await vscode.window.showQuickPick([{ label: '$(close-all) All', name: 'all' }, ...active.map((a) => ({ label: a.name, name: a.name }))], { placeHolder: 'Skill to unload' });
  if (pick) report(await service.unloadByUser(sessionId, pick.name === 'all' ? 'all' : [pick.name]));
}

export function registerSessionCommands(context: vscode.ExtensionContext, service: SkillsService, tree: SkillsTree): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.loadSkill, (node?: unknown, target?: unknown) => loadSkill(service, tree, node, target)),
    vscode.commands.registerCommand(COMMANDS.unloadSkill, (node?: unknown) => unloadSkill(service, tree, node)),
  );
}
