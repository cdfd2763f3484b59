// Per-conversation state of `@skills`: the runtime session id lives in ChatResult.metadata, so the next
// request of the same conversation (even after a reload of VS Code) finds it in context.history.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { z } from 'zod';
import type { ChatMessage } from '../../core/prompt/promptTypes';

/** What every `@skills` result carries in its metadata. */
export interface SkillsResultMetadata {
  sessionId: string;
  /** The slash command answered, if any (drives the follow-ups). */
  command?: string;
  /** Skills loaded at the end of the request, in load order. */
  activeSkills?: string[];
}

const metadataSchema = z.object({ sessionId: z.string().min(1) }).passthrough();

/** The session id of this conversation: from the latest response's metadata, else a new one. */
export function conversationSession(context: vscode.ChatContext): { sessionId: string; isNew: boolean } {
  for (let i = context.history.length - 1; i >= 0; i--) {
    const turn = context.history[i];
    if (!(turn instanceof vscode.ChatResponseTurn)) continue;
    const parsed = metadataSchema.safeParse(turn.result.metadata);
    if (parsed.success) return { sessionId: parsed.data.sessionId, isNew: false };
  }
  return { sessionId: randomUUID(), isNew: true };
}

/** The markdown text of a response turn (what the model said; progress and references are dropped). */
function responseText(turn: vscode.ChatResponseTurn): string {
  return turn.response
    .map((p) => (p instanceof vscode.ChatResponseMarkdownPart ? p.value.value : ''))
    .join('')
    .trim();
}

/** The earlier turns as the core's host-neutral history (slash-command turns left out: they were not chats). */
export function historyMessages(context: vscode.ChatContext): ChatMessage[] {
  const out: ChatMessage[] = [];
  let skipNextResponse = false;
  for (const turn of context.history) {
    if (turn instanceof vscode.ChatRequestTurn) {
      skipNextResponse = turn.command !== undefined;
      if (!skipNextResponse) out.push({ role: 'user', content: turn.prompt });
    } else if (turn instanceof vscode.ChatResponseTurn) {
      const text = responseText(turn);
      if (!skipNextResponse && text) out.push({ role: 'assistant', content: text });
      skipNextResponse = false;
    }
  }
  return out;
}
