// Which runtime session a tool call belongs to. `@skills` registers its conversation's session for the
// length of a request; a call that matches none (Copilot's own agent, a #tool reference, a test) goes to
// the window's shared session.
import type * as vscode from 'vscode';
import type { ToolResult } from '../core/tools/toolResult';
import { WINDOW_SESSION_ID } from './skillsService';

/**
 * A stable key for a chat tool-invocation token. The token is opaque by contract; VS Code 1.139 passes the
 * chat session's resource in it, which is the same for the participant and the tool it invokes.
 */
export function tokenKey(token: vscode.ChatParticipantToolToken | undefined): string | undefined {
  if (token === undefined || token === null) return undefined;
  const t = token as { sessionResource?: { toString(): string } };
  if (t.sessionResource) return `resource:${t.sessionResource.toString()}`;
  try {
    return `json:${JSON.stringify(token)}`;
  } catch {
    return undefined;
  }
}

/** Where one tool call goes: the session, and the model's call id when the participant knows it. */
export interface Route {
  sessionId: string;
  callId?: string;
  /**
   * The call's structured result, set by the tool when it answered: the participant, which made the call
   * and holds this route, reads the outcome here instead of parsing the model's text.
   */
  result?: ToolResult;
}

/** Conversations with a request in flight, and the tool calls they are about to make. */
export class SessionRouter {
  private readonly byToken = new Map<string, string>();
  /** `<tool>\0<input JSON>` → routes, first in first out: exact for calls the participant makes itself. */
  private readonly pending = new Map<string, Route[]>();

  /** Routes calls carrying `token` to `sessionId` until the returned function is called. */
  enter(token: vscode.ChatParticipantToolToken | undefined, sessionId: string): () => void {
    const key = tokenKey(token);
    if (key) this.byToken.set(key, sessionId);
    return () => {
      if (key && this.byToken.get(key) === sessionId) this.byToken.delete(key);
    };
  }

  /** The participant is about to invoke `tool` with `input` for `route`. Call the result when it returned. */
  expect(tool: string, input: unknown, route: Route): () => void {
    const key = pendingKey(tool, input);
    const list = this.pending.get(key) ?? [];
    list.push(route);
    this.pending.set(key, list);
    return () => {
      const l = this.pending.get(key);
      const i = l?.indexOf(route) ?? -1;
      if (l && i >= 0) l.splice(i, 1);
      if (l && !l.length) this.pending.delete(key);
    };
  }

  /** The session of one tool call: the participant's expected call, else its conversation, else the window's. */
  route(tool: string, input: unknown, token: vscode.ChatParticipantToolToken | undefined): Route {
    const expected = this.pending.get(pendingKey(tool, input));
    if (expected?.length) return expected[0];
    const key = tokenKey(token);
    const byToken = key ? this.byToken.get(key) : undefined;
    return { sessionId: byToken ?? WINDOW_SESSION_ID };
  }
}

function pendingKey(tool: string, input: unknown): string {
  return `${tool}\0${JSON.stringify(input ?? {})}`;
}
