// The core's composed call (instructions + host-neutral messages) as VS Code chat messages. Chat messages
// have no system role, so the instructions go first as a user message.
import * as vscode from 'vscode';
import type { ChatMessage, ComposeResult } from '../../core/prompt/promptTypes';

/** Maps one composed call to LanguageModelChatMessages, merging runs of tool calls and of tool results. */
export function toChatMessages(composed: Pick<ComposeResult, 'instructions' | 'messages'>): vscode.LanguageModelChatMessage[] {
  const out: vscode.LanguageModelChatMessage[] = [vscode.LanguageModelChatMessage.User(composed.instructions)];
  let assistant: (vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart)[] | undefined;
  let results: vscode.LanguageModelToolResultPart[] | undefined;
  const flush = () => {
    if (assistant) out.push(vscode.LanguageModelChatMessage.Assistant(assistant));
    if (results) out.push(vscode.LanguageModelChatMessage.User(results));
    assistant = undefined;
    results = undefined;
  };
  for (const m of composed.messages as ChatMessage[]) {
    switch (m.role) {
      case 'user':
        flush();
        out.push(vscode.LanguageModelChatMessage.User(m.content));
        break;
      case 'assistant':
        flush();
        assistant = [new vscode.LanguageModelTextPart(m.content)];
        break;
      case 'tool-call':
        if (results) flush();
        (assistant ??= []).push(new vscode.LanguageModelToolCallPart(m.callId, m.name, (m.input ?? {}) as object));
        break;
      case 'tool-result':
        if (assistant) {
          out.push(vscode.LanguageModelChatMessage.Assistant(assistant));
          assistant = undefined;
        }
        (results ??= []).push(new vscode.LanguageModelToolResultPart(m.callId, [new vscode.LanguageModelTextPart(m.content)]));
        break;
    }
  }
  flush();
  return out;
}

/** The text of a tool result's parts. */
export function resultText(result: vscode.LanguageModelToolResult): string {
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}
