import * as vscode from 'vscode';
import { PARTICIPANT, TOOL_NAMES } from './ids';

/** How many model round trips one request may take before we stop calling tools. */
const MAX_TOOL_ROUNDS = 8;

/** The tools this participant offers the model: ours, as registered in vscode.lm.tools. */
function skillTools(): vscode.LanguageModelChatTool[] {
  const ours = new Set<string>(Object.values(TOOL_NAMES));
  return vscode.lm.tools
    .filter((t) => ours.has(t.name))
    .map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
}

/**
 * Answers an `@skills` request: sends the prompt to the chosen model with the skill tools,
 * runs the tool calls it asks for through vscode.lm.invokeTool, feeds the results back, and
 * streams the model's text, until the model answers without calling a tool.
 */
export const handleSkillsRequest: vscode.ChatRequestHandler = async (request, _context, stream, token) => {
  const messages: vscode.LanguageModelChatMessage[] = [vscode.LanguageModelChatMessage.User(request.prompt)];
  const tools = skillTools();
  for (let round = 0; round < MAX_TOOL_ROUNDS; round++) {
    const response = await request.model.sendRequest(messages, { tools }, token);
    const calls: vscode.LanguageModelToolCallPart[] = [];
    const texts: vscode.LanguageModelTextPart[] = [];
    for await (const part of response.stream) {
      if (part instanceof vscode.LanguageModelTextPart) {
        stream.markdown(part.value);
        texts.push(part);
      } else if (part instanceof vscode.LanguageModelToolCallPart) {
        calls.push(part);
      }
    }
    if (calls.length === 0) return {};
    messages.push(vscode.LanguageModelChatMessage.Assistant([...texts, ...calls]));
    const results: vscode.LanguageModelToolResultPart[] = [];
    for (const call of calls) {
      stream.progress(`Running ${call.name}…`);
      const result = await vscode.lm.invokeTool(
        call.name,
        { input: call.input, toolInvocationToken: request.toolInvocationToken },
        token,
      );
      results.push(new vscode.LanguageModelToolResultPart(call.callId, result.content));
    }
    messages.push(vscode.LanguageModelChatMessage.User(results));
  }
  stream.markdown(`\n\nStopped after ${MAX_TOOL_ROUNDS} tool rounds; ask again to continue.`);
  return {};
};

/** Registers the `@skills` chat participant. */
export function registerSkillsParticipant(context: vscode.ExtensionContext): void {
  const participant = vscode.chat.createChatParticipant(PARTICIPANT.id, handleSkillsRequest);
  context.subscriptions.push(participant);
}
