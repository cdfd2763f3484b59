// Test-side handle on the scripted model extension (test/scriptedModel).
import * as vscode from 'vscode';
import { SCRIPTED_COMMANDS, SCRIPTED_VENDOR, type RecordedRequest, type ScriptedTurn } from '../../scriptedModel/protocol';
import { waitFor } from './waitFor';

export type { RecordedRequest, ScriptedTurn };

/** Replaces the model's script (one turn per request) and forgets earlier requests. */
export async function setScript(turns: ScriptedTurn[]): Promise<void> {
  await vscode.commands.executeCommand(SCRIPTED_COMMANDS.setScript, turns);
}

/** Every request the model received since the last setScript. */
export async function recordedRequests(): Promise<RecordedRequest[]> {
  return (await vscode.commands.executeCommand<RecordedRequest[]>(SCRIPTED_COMMANDS.requests)) ?? [];
}

/** Resolves once the model has received `count` requests; rejects after `timeoutMs`. */
export async function waitForRequests(count: number, timeoutMs = 30_000): Promise<RecordedRequest[]> {
  return vscode.commands.executeCommand<RecordedRequest[]>(SCRIPTED_COMMANDS.waitForRequests, count, timeoutMs);
}

/** The scripted model, once VS Code has resolved it (models resolve lazily). */
export async function scriptedChatModel(): Promise<vscode.LanguageModelChat> {
  return waitFor('the scripted model in vscode.lm.selectChatModels', async () => {
    const [model] = await vscode.lm.selectChatModels({ vendor: SCRIPTED_VENDOR });
    return model;
  });
}
