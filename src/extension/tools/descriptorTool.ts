// The one Language Model Tool class: any descriptor of the core's tool table, routed to its chat session,
// run through the core, and answered with the model's text of the one result. The structured result goes
// to the route, so the @skills loop reads the outcome without parsing text.
import * as vscode from 'vscode';
import { catalogAuditEntry } from '../../core/catalog/catalogAudit';
import { previewUpdate } from '../../core/catalog/updateSkillTool';
import type { SkillListing, ToolDescriptor, ToolServices } from '../../core/toolTable/toolDescriptor';
import type { ToolResult } from '../../core/tools/toolResult';
import { toolResultText } from '../../core/toolTable/toolResultText';
import { callTool } from '../../core/toolTable/callTool';
import { CATALOG_TOOLS } from '../../core/tools/toolNames';
import type { WindowCatalog } from '../windowCatalog';
import type { Route, SessionRouter } from '../sessionRouting';
import type { SkillsService } from '../skillsService';
import { presentationOf, type PresentationContext } from './toolPresentation';

/** What every tool gets from the extension. */
export interface ToolDeps {
  service: SkillsService;
  router: SessionRouter;
  /** The unified catalog of runSkill / updateSkill. */
  catalog: WindowCatalog;
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

/** What list_skills (and find_skills) may show a session of this window, with the notes on what was left out. */
export async function windowListing(service: SkillsService, sessionId: string): Promise<SkillListing> {
  const registry = await service.registryReady();
  const listable = service.listableSkills(registry, sessionId);
  const deferred = registry.usable().length - listable.length;
  const notes = [
    ...(vscode.workspace.isTrusted ? [] : ['Workspace skills are not offered because this workspace is not trusted; the user can trust it with "Workspaces: Manage Workspace Trust".']),
    ...(deferred ? [`${deferred} more skill(s) are listed by VS Code's own skill support (chat.useAgentSkills) and left out here.`] : []),
  ];
  return { skills: listable.map((r) => ({ name: r.name, description: r.description, location: r.location })), notes };
}

/** The core's services as the extension provides them. */
export function toolServices(deps: ToolDeps): ToolServices {
  return {
    runtime: async () => (await deps.service.ready()).runtime,
    catalog: () => deps.catalog.ready(),
    sessionLoader: deps.catalog.sessions,
    listSkills: (sessionId) => windowListing(deps.service, sessionId),
  };
}

/** One descriptor as a `vscode.LanguageModelTool`. */
export class DescriptorTool implements vscode.LanguageModelTool<Record<string, unknown>> {
  private readonly presentation: ReturnType<typeof presentationOf>;
  private readonly services: ToolServices;

  constructor(
    private readonly tool: ToolDescriptor,
    private readonly deps: ToolDeps,
  ) {
    this.presentation = presentationOf(tool);
    this.services = toolServices(deps);
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<Record<string, unknown>>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const input = options.input ?? {};
    const route = this.deps.router.route(this.tool.name, input, options.toolInvocationToken);
    const abort = signalOf(token);
    try {
      const r = await this.run(input, route, abort.signal);
      route.result = r;
      return textResult(toolResultText(r));
    } finally {
      abort.dispose();
    }
  }

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<Record<string, unknown>>): vscode.ProviderResult<vscode.PreparedToolInvocation> {
    return this.presentation.prepare(options.input ?? {}, this.context(options.input ?? {}));
  }

  private async run(input: Record<string, unknown>, route: Route, signal: AbortSignal): Promise<ToolResult> {
    const { log } = this.deps.service;
    const who = `${route.sessionId.slice(0, 16)}: ${this.tool.name}`;
    const context = this.context(input);
    const refusal = this.presentation.refuse?.(input, context);
    if (refusal) {
      log.warn(`${who} refused (${refusal.code}): ${refusal.message}`);
      const r: ToolResult = { ok: false, tool: this.tool.name, error: refusal };
      // Every call lands in the audit log, refusals included.
      if (this.tool.family === 'catalog') {
        const audit = (await this.deps.service.ready()).runtime.audit;
        audit?.append(catalogAuditEntry(this.tool.id as keyof typeof CATALOG_TOOLS, input, r, route.sessionId, new Date(), 0));
      }
      return r;
    }
    const r = await callTool(this.tool, { sessionId: route.sessionId, callId: route.callId, signal, surface: 'vscode', services: this.services }, input);
    if (r.ok) log.info(`${who} ok`);
    else log.warn(`${who} refused (${r.error.code}): ${r.error.message}`);
    return this.presentation.annotate ? this.presentation.annotate(r, context) : r;
  }

  private context(input: Record<string, unknown>): PresentationContext {
    return {
      targetSkill: (i) => {
        if (i.skill) return i.skill;
        // prepareInvocation must not start the runtime: a session only counts when it is up.
        const { sessionId } = this.deps.router.route(this.tool.name, input, undefined);
        const active = this.deps.service.peek()?.runtime.sessions.get(sessionId)?.active_skills;
        return active?.length ? active[active.length - 1].name : 'the last loaded skill';
      },
      sandboxStatus: () => this.deps.service.sandboxStatus(),
      // In the session the call will run in (prepareInvocation has no token: the participant's expected call, else
      // the window's session, as for targetSkill above); the runtime is up by then whenever a skill can be loaded.
      checkRun: async (i) => (await this.deps.service.ready()).runtime.checkRun(i, { sessionId: this.deps.router.route(this.tool.name, input, undefined).sessionId }),
      trusted: () => vscode.workspace.isTrusted,
      previewUpdate: async (i) => previewUpdate(await this.deps.catalog.ready(), i),
    };
  }
}
