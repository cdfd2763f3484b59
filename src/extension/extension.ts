// Entry point of the extension: activation only wires the registerX functions together.
import * as vscode from 'vscode';
import { registerSkillsListTool } from './skillsListTool';
import { registerSkillsParticipant } from './skillsParticipant';

export function activate(context: vscode.ExtensionContext): void {
  registerSkillsListTool(context);
  registerSkillsParticipant(context);
}

export function deactivate(): void {
  // Every registration is a disposable in context.subscriptions; VS Code disposes them.
}
