// A language model for tests only: each request is answered with the next turn of the script
// the test set (text and/or tool calls), and every request is recorded so the test can assert
// what a real model would have seen. Lives under test/, never in the .vsix.
import * as vscode from 'vscode';
import { recordMessages } from './record';
import { SCRIPTED_COMMANDS, SCRIPTED_MODEL_ID, SCRIPTED_VENDOR, type RecordedRequest, type ScriptedTurn } from './protocol';

const FALLBACK: ScriptedTurn = { text: '(scripted model: the script has no turn left for this request)' };

/** The script and the recorded requests, plus waiters for the next request. */
class ScriptState {
  private turns: ScriptedTurn[] = [];
  readonly requests: RecordedRequest[] = [];
  private readonly changed = new vscode.EventEmitter<void>();

  setScript(turns: ScriptedTurn[]): void {
    this.turns = [...turns];
    this.requests.length = 0;
  }

  nextTurn(): ScriptedTurn {
    return this.turns.shift() ?? FALLBACK;
  }

  record(request: RecordedRequest): void {
    this.requests.push(request);
    this.changed.fire();
  }

  waitFor(count: number, timeoutMs: number): Promise<RecordedRequest[]> {
    return new Promise((resolve, reject) => {
      if (this.requests.length >= count) return resolve([...this.requests]);
      const timer = setTimeout(() => {
        sub.dispose();
        reject(new Error(`scripted model: waited ${timeoutMs} ms for ${count} request(s), got ${this.requests.length}`));
      }, timeoutMs);
      const sub = this.changed.event(() => {
        if (this.requests.length < count) return;
        clearTimeout(timer);
        sub.dispose();
        resolve([...this.requests]);
      });
    });
  }
}

function createProvider(state: ScriptState): vscode.LanguageModelChatProvider {
  // isUserSelectable/isDefault are not in the stable typings, but they make the model show in
  // the chat view's picker and be picked for chat requests.
  const info: vscode.LanguageModelChatInformation & { isUserSelectable: boolean; isDefault: boolean } = {
    id: SCRIPTED_MODEL_ID,
    name: 'Scripted Test Model',
    family: 'scripted',
    version: '1',
    maxInputTokens: 200_000,
    maxOutputTokens: 8_000,
    capabilities: { toolCalling: true, imageInput: false },
    isUserSelectable: true,
    isDefault: true,
  };
  let callCounter = 0;
  return {
    provideLanguageModelChatInformation: () => [info],
    async provideLanguageModelChatResponse(_model, messages, options, progress, token) {
      const turn = state.nextTurn();
      const requestIndex = state.requests.length;
      state.record({
        messages: recordMessages(messages),
        tools: (options.tools ?? []).map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema ?? null })),
        toolMode: options.toolMode === vscode.LanguageModelChatToolMode.Required ? 'required' : 'auto',
        answered: turn,
      });
      if (turn.untilCancelled) {
        await new Promise<void>((resolve) => (token.isCancellationRequested ? resolve() : token.onCancellationRequested(() => resolve())));
        throw new vscode.CancellationError();
      }
      if (turn.error) {
        const { code, message } = turn.error;
        throw code === 'Error' ? new Error(message) : vscode.LanguageModelError[code](message);
      }
      if (turn.text) progress.report(new vscode.LanguageModelTextPart(turn.text));
      for (const [i, call] of (turn.toolCalls ?? []).entries()) {
        const callId = call.callId ?? `call-${requestIndex}-${i}-${callCounter++}`;
        progress.report(new vscode.LanguageModelToolCallPart(callId, call.name, call.input));
      }
    },
    async provideTokenCount(_model, text) {
      const s = typeof text === 'string' ? text : JSON.stringify(recordMessages([text]));
      return Math.ceil(s.length / 4);
    },
  };
}

export function activate(context: vscode.ExtensionContext): void {
  const state = new ScriptState();
  context.subscriptions.push(
    vscode.lm.registerLanguageModelChatProvider(SCRIPTED_VENDOR, createProvider(state)),
    vscode.commands.registerCommand(SCRIPTED_COMMANDS.setScript, (turns: ScriptedTurn[]) => state.setScript(turns ?? [])),
    vscode.commands.registerCommand(SCRIPTED_COMMANDS.requests, () => [...state.requests]),
    vscode.commands.registerCommand(SCRIPTED_COMMANDS.waitForRequests, (count: number, timeoutMs: number) =>
      state.waitFor(count ?? 1, timeoutMs ?? 30_000),
    ),
  );
}

export function deactivate(): void {}
