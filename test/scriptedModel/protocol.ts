// What tests and the scripted model exchange through its commands. Plain JSON both ways,
// because command arguments and results cross the extension host's RPC boundary.

/** The vendor the scripted model registers under (selectChatModels({ vendor })). */
export const SCRIPTED_VENDOR = 'scripted';
/** The id of its one model. */
export const SCRIPTED_MODEL_ID = 'scripted-model';

/** Command ids of the scripted model extension. */
export const SCRIPTED_COMMANDS = {
  /** (turns: ScriptedTurn[]) → void: replaces the script and forgets recorded requests. */
  setScript: 'scriptedModel.setScript',
  /** () → RecordedRequest[]: every request received since the last setScript. */
  requests: 'scriptedModel.requests',
  /** (count: number, timeoutMs: number) → RecordedRequest[]: resolves once `count` requests arrived; rejects at the deadline. */
  waitForRequests: 'scriptedModel.waitForRequests',
} as const;

/** One tool call the model makes. */
export interface ScriptedToolCall {
  name: string;
  input: Record<string, unknown>;
  /** Defaults to `call-<request>-<index>`. */
  callId?: string;
}

/** The answer to one request: text, tool calls, or both (text first); or an error; or nothing until cancelled. */
export interface ScriptedTurn {
  text?: string;
  toolCalls?: ScriptedToolCall[];
  /** Fail the request with vscode.LanguageModelError.<code>(message) (or a plain Error for `Error`). */
  error?: { code: 'Blocked' | 'NoPermissions' | 'NotFound' | 'Error'; message: string };
  /** Answer nothing until the request is cancelled (for tests of Cancel). */
  untilCancelled?: boolean;
}

/** One part of a message as the model received it. */
export type RecordedPart =
  | { kind: 'text'; value: string }
  | { kind: 'toolCall'; callId: string; name: string; input: unknown }
  | { kind: 'toolResult'; callId: string; content: string[] }
  | { kind: 'other'; description: string };

/** One message of a request. */
export interface RecordedMessage {
  role: 'user' | 'assistant' | 'system' | 'unknown';
  parts: RecordedPart[];
}

/** Everything the model saw in one request. */
export interface RecordedRequest {
  messages: RecordedMessage[];
  tools: { name: string; description: string; inputSchema: unknown }[];
  toolMode: 'auto' | 'required';
  /** What the model answered (the scripted turn, or the fallback when the script ran out). */
  answered: ScriptedTurn;
}
