// What the user sees of workspace trust (VS Code's Restricted Mode): workspace skills are not offered and no
// script runs until the folder is trusted. One place for the wording and the button that leads to trusting it.
import * as vscode from 'vscode';
import { PROJECT_SKILL_DIRS } from '../core/registry/defaultSkillRoots';

import { MANAGE_TRUST_COMMAND, MANAGE_TRUST_LABEL } from './ids';

export { HIDDEN_SKILLS_KEY, MANAGE_TRUST_COMMAND, MANAGE_TRUST_LABEL } from './ids';

/** The SKILL.md files in the workspace's skill folders while the workspace is not trusted (none when it is). */
export async function hiddenWorkspaceSkills(): Promise<number> {
  if (vscode.workspace.isTrusted) return 0;
  const files = await vscode.workspace.findFiles(`{${PROJECT_SKILL_DIRS.join(',')}}/*/SKILL.md`, undefined, 500);
  return files.length;
}

/** The Skills view's line when other skills are listed (the welcome content says it when nothing else shows). */
export function hiddenSkillsMessage(count: number): string {
  return `${count} workspace skill(s) hidden until you trust this folder`;
}

/** An error that leads with what to do, with a button that opens Manage Workspace Trust. */
export async function showUntrustedError(message: string): Promise<void> {
  const pick = await vscode.window.showErrorMessage(message, MANAGE_TRUST_LABEL);
  if (pick === MANAGE_TRUST_LABEL) await vscode.commands.executeCommand(MANAGE_TRUST_COMMAND);
}
