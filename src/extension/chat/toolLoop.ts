// One `@skills` request: compose with the core, send to the model with our tools, run the tool calls
// through vscode.lm.invokeTool (so VS Code shows them and asks before scripts run), repeat until the
// model answers without a tool call.
import * as vscode from 'vscode';
import type { ChatMessage } from '../../core/prompt/promptTypes';
import type { SkillTools } from '../../core/runtime/skillTools';
import { ToolError } from '../../core/tools/toolError';
import type { ToolResult } from '../../core/tools/toolResult';
import { toolResultText } from '../../core/toolTable/toolResultText';
import { findTool } from '../../core/toolTable/toolTable';
import type { Route, SessionRouter } from '../sessionRouting';
import { presentationOf } from '../tools/toolPresentation';
import { toChatMessages, resultText } from './messages';

/** What the loop needs from the extension. */
export interface ToolLoopInput {
  runtime: SkillTools;
  router: SessionRouter;
  sessionId: string;
  history: ChatMessage[];
  tools: vscode.LanguageModelChatTool[];
  maxRounds: number;
  request: vscode.ChatRequest;
  stream: vscode.ChatResponseStream;
  token: vscode.CancellationToken;
  log: vscode.LogOutputChannel;
}

/** How the loop ended. */
export interface ToolLoopOutcome {
  rounds: number;
  /** Skill names the model loaded, read from or ran scripts of. */
  usedSkills: Set<string>;
  /** A model error, reported in the chat already. */
  error?: string;
  cancelled?: boolean;
}

/** The options of every `@skills` model call (the trigger judge sends the same). */
export function skillsRequestOptions(tools: vscode.LanguageModelChatTool[]): vscode.LanguageModelChatRequestOptions {
  return { tools, justification: 'Answer with the Agent Skills of this workspace.' };
}

/** A short line for the chat while a tool runs ("Loading pdf-processing…"). */
export function progressText(name: string, input: Record<string, unknown>): string {
  const tool = findTool(name);
  return tool ? presentationOf(tool).progress(input) : `Calling ${name}…`;
}

/** A model error as one line: what it means for the user, then the model's own message. */
export function describeModelError(e: unknown): string {
  if (e instanceof vscode.LanguageModelError) {
    const why =
      e.code === vscode.LanguageModelError.NoPermissions.name
        ? 'the extension may not use this model (check the language model access settings)'
        : e.code === vscode.LanguageModelError.Blocked.name
          ? 'the request was blocked (quota or content filter)'
          : e.code === vscode.LanguageModelError.NotFound.name
            ? 'the selected model is not available; pick another model in the chat view'
            : e.code || 'the model reported an error';
    return `${why}: ${e.message}`;
  }
  return e instanceof Error ? e.message : String(e);
}

/** The skills a successful call used, as its descriptor names them. */
function touchedSkills(name: string, input: Record<string, unknown>): string[] {
  return findTool(name)?.skillsNamed?.(input) ?? [];
}

/** A call that never reached the tool (declined, or VS Code could not run it) as the one result shape. */
function unreachedResult(name: string, e: unknown): ToolResult {
  const msg = e instanceof Error ? e.message : String(e);
  const error = /cancel/i.test(msg)
    ? new ToolError('declined', `the user did not allow ${name} to run.`, 'do not retry it; answer without it or ask the user.')
    : new ToolError('tool_failed', `${name} failed: ${msg}`, 'check the tool name and input; use one of the tools you were given.');
  return { ok: false, tool: name, error: error.toShape() };
}

/** Runs the loop; model errors are written to the chat and returned, never thrown. */
export async function runToolLoop(o: ToolLoopInput): Promise<ToolLoopOutcome> {
  const usedSkills = new Set<string>();
  const history = o.history;
  for (let round = 1; round <= o.maxRounds; round++) {
    if (o.token.isCancellationRequested) return { rounds: round - 1, usedSkills, cancelled: true };
    const composed = await o.runtime.compose(o.sessionId, history);
    for (const w of composed.warnings) o.log.warn(`session ${o.sessionId.slice(0, 8)}: ${w}`);
    const texts: string[] = [];
    const calls: vscode.LanguageModelToolCallPart[] = [];
    try {
      const response = await o.request.model.sendRequest(toChatMessages(composed), skillsRequestOptions(o.tools), o.token);
      for await (const part of response.stream) {
        if (part instanceof vscode.LanguageModelTextPart) {
          o.stream.markdown(part.value);
          texts.push(part.value);
        } else if (part instanceof vscode.LanguageModelToolCallPart) calls.push(part);
      }
    } catch (e) {
      if (o.token.isCancellationRequested) return { rounds: round, usedSkills, cancelled: true };
      const error = describeModelError(e);
      o.stream.markdown(`\n\n**The model could not answer:** ${error}`);
      o.log.error(`@skills: model error: ${error}`);
      return { rounds: round, usedSkills, error };
    }
    if (texts.length) history.push({ role: 'assistant', content: texts.join('') });
    if (!calls.length) return { rounds: round, usedSkills };
    for (const call of calls) history.push({ role: 'tool-call', callId: call.callId, name: call.name, input: call.input });
    for (const call of calls) {
      if (o.token.isCancellationRequested) return { rounds: round, usedSkills, cancelled: true };
      const input = (call.input ?? {}) as Record<string, unknown>;
      o.stream.progress(progressText(call.name, input));
      // The tool leaves its structured result on this route: the outcome is read there, never from the text.
      const route: Route = { sessionId: o.sessionId, callId: call.callId };
      const done = o.router.expect(call.name, input, route);
      let content: string;
      let isError: boolean;
      try {
        const answer = await vscode.lm.invokeTool(call.name, { input, toolInvocationToken: o.request.toolInvocationToken }, o.token);
        content = resultText(answer);
        isError = route.result ? !route.result.ok : false;
      } catch (e) {
        if (o.token.isCancellationRequested) return { rounds: round, usedSkills, cancelled: true };
        isError = true;
        content = toolResultText(unreachedResult(call.name, e));
      } finally {
        done();
      }
      if (!isError) for (const n of touchedSkills(call.name, input)) usedSkills.add(n);
      history.push({ role: 'tool-result', callId: call.callId, name: call.name, content, isError });
    }
  }
  o.stream.markdown(`\n\nStopped after ${o.maxRounds} tool rounds (setting agentSkills.chat.maxToolRounds); ask again to continue.`);
  return { rounds: o.maxRounds, usedSkills };
}
