// Drives the real chat view the way a user does: a new chat, then a typed request.
import * as vscode from 'vscode';
import { PARTICIPANT } from '../../../src/extension/ids';

/**
 * Starts a fresh chat and submits `@skills <prompt>`. Returns once the request is submitted; wait
 * for its effects (e.g. the scripted model's waitForRequests), never for a fixed time.
 */
export async function askSkills(prompt: string): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.chat.newChat');
  await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@${PARTICIPANT.name} ${prompt}` });
}
