// The shared shape of the runtime's Language Model Tools: route the call to its session, validate the
// input with the core's zod schema, call the core, and turn its answer into a LanguageModelToolResult.
import * as vscode from 'vscode';
import type { ToolInvocation } from '../../core/runtime/skillsRuntime';
import type { SkillToolName } from '../../core/runtime/toolSchemas';
import type { SessionState } from '../../core/runtime/types';
import { TOOL_NAMES } from '../ids';
import type { CatalogHost } from '../catalogHost';
import type { Route, SessionRouter } from '../sessionRouting';
import type { SkillsService } from '../skillsService';

/** What every tool gets from the extension. */
export interface ToolDeps {
  service: SkillsService;
  router: SessionRouter;
  /** The unified catalog of runSkill / updateSkill. */
  catalog: CatalogHost;
}

/** Text the model reads: the result as compact JSON, or the error with what to do next. */
export function invocationText(r: ToolInvocation): string {
  if (r.ok) return JSON.stringify(r.result);
  const details = r.error.details ? `\nDetails: ${JSON.stringify(r.error.details)}` : '';
  return `Error (${r.error.code}): ${r.error.message}\nWhat to do: ${r.error.hint}${details}`;
}

/** A tool result carrying one text part. */
export function textResult(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

/** An AbortSignal that fires when the cancellation token does. */
export function signalOf(token: vscode.CancellationToken): { signal: AbortSignal; dispose(): void } {
  const ctl = new AbortController();
  if (token.isCancellationRequested) ctl.abort();
  const sub = token.onCancellationRequested(() => ctl.abort());
  return { signal: ctl.signal, dispose: () => sub.dispose() };
}

/** Base of the six runtime tools; subclasses only word their invocation messages. */
export abstract class RuntimeTool<T extends object> implements vscode.LanguageModelTool<T> {
  constructor(
    protected readonly deps: ToolDeps,
    readonly tool: SkillToolName,
  ) {}

  get hostName(): string {
    return TOOL_NAMES[this.tool];
  }

  protected route(input: T, token: vscode.ChatParticipantToolToken | undefined): Route {
    return this.deps.router.route(this.hostName, input, token);
  }

  /** The session a call will act on, if the runtime is up (prepareInvocation must not start it). */
  protected sessionOf(input: T): SessionState | undefined {
    const { sessionId } = this.route(input, undefined);
    return this.deps.service.peek()?.runtime.sessions.get(sessionId);
  }

  /** The skill a call without `skill` acts on: the most recently loaded one. */
  protected targetSkill(input: T & { skill?: string }): string {
    if (input.skill) return input.skill;
    const active = this.sessionOf(input)?.active_skills;
    return active?.length ? active[active.length - 1].name : 'the last loaded skill';
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<T>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    // The runtime validates the input with the same zod schema, so a bad call is refused there, with the
    // field named, and lands in the audit log like every other refused call.
    const route = this.route(options.input, options.toolInvocationToken);
    const abort = signalOf(token);
    try {
      const r = await this.deps.service.invoke(this.tool, options.input ?? {}, route.sessionId, { callId: route.callId, signal: abort.signal });
      return textResult(invocationText(r));
    } finally {
      abort.dispose();
    }
  }

  abstract prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<T>): vscode.PreparedToolInvocation | Promise<vscode.PreparedToolInvocation>;
}
