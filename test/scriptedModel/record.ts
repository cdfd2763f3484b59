// Turns what VS Code hands a language model provider into plain JSON (RecordedRequest).
import * as vscode from 'vscode';
import type { RecordedMessage, RecordedPart } from './protocol';

function roleName(role: vscode.LanguageModelChatMessageRole): RecordedMessage['role'] {
  switch (role) {
    case vscode.LanguageModelChatMessageRole.User:
      return 'user';
    case vscode.LanguageModelChatMessageRole.Assistant:
      return 'assistant';
    default:
      // The System role exists only in a proposed API; record it by its number.
      return (role as number) === 3 ? 'system' : 'unknown';
  }
}

function contentText(content: readonly unknown[]): string[] {
  return content.map((c) => {
    if (c instanceof vscode.LanguageModelTextPart) return c.value;
    if (c instanceof vscode.LanguageModelPromptTsxPart) return JSON.stringify(c.value);
    if (c instanceof vscode.LanguageModelDataPart) return `[data ${c.mimeType}] ${new TextDecoder().decode(c.data)}`;
    return describe(c);
  });
}

function describe(value: unknown): string {
  if (value && typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (typeof v.value === 'string') return v.value;
    return `${value.constructor?.name ?? 'object'} ${JSON.stringify(value)}`;
  }
  return String(value);
}

function recordPart(part: unknown): RecordedPart {
  if (part instanceof vscode.LanguageModelTextPart) return { kind: 'text', value: part.value };
  if (part instanceof vscode.LanguageModelToolCallPart) return { kind: 'toolCall', callId: part.callId, name: part.name, input: part.input };
  if (part instanceof vscode.LanguageModelToolResultPart) return { kind: 'toolResult', callId: part.callId, content: contentText(part.content) };
  return { kind: 'other', description: describe(part) };
}

/** The messages of one request as plain JSON. */
export function recordMessages(messages: readonly vscode.LanguageModelChatRequestMessage[]): RecordedMessage[] {
  return messages.map((m) => ({ role: roleName(m.role), parts: m.content.map(recordPart) }));
}
