import * as vscode from 'vscode';
import { PARTICIPANT } from '../ids';
import type { SessionRouter } from '../sessionRouting';
import type { SkillsService } from '../skillsService';
import { offeredToolNames } from '../surfaceWhen';
import { conversationSession, historyMessages, type SkillsResultMetadata } from './conversation';
import { answerSlashCommand } from './slashCommands';
import { runToolLoop } from './toolLoop';
import { beginSkillsTurn } from './turnStart';

/** The tools of our surface, as vscode.lm.tools describes them (what @skills offers the model). */
export function offeredTools(service: SkillsService): vscode.LanguageModelChatTool[] {
  const names = new Set(offeredToolNames(service.settings.toolSurface));
  return vscode.lm.tools.filter((t) => names.has(t.name)).map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
}

/** Builds the `@skills` request handler. */
export function createSkillsHandler(service: SkillsService, router: SessionRouter): vscode.ChatRequestHandler {
  return async (request, context, stream, token): Promise<vscode.ChatResult> => {
    const { sessionId, isNew } = conversationSession(context);
    const metadata: SkillsResultMetadata = { sessionId, ...(request.command ? { command: request.command } : {}) };
    const { runtime, registry } = await service.ready();
    await runtime.openSession(sessionId);
    if (isNew) await service.setSessionTitle(sessionId, request.command ? `/${request.command} ${request.prompt}`.trim() : request.prompt);
    if (request.command) {
      await answerSlashCommand(service, request.command, request.prompt, sessionId, stream);
      metadata.activeSkills = runtime.sessions.get(sessionId)?.active_skills.map((a) => a.name);
      return { metadata };
    }
    const turn = await beginSkillsTurn(runtime, sessionId, request.prompt, service.takePinned(sessionId));
    for (const n of turn.autoLoaded) stream.progress(`Loading ${n}…`);
    for (const e of turn.errors) service.log.warn(`@skills: ${e}`);
    const leave = router.enter(request.toolInvocationToken, sessionId);
    try {
      const outcome = await runToolLoop({
        runtime,
        router,
        sessionId,
        history: [...historyMessages(context), { role: 'user', content: request.prompt }],
        tools: offeredTools(service),
        maxRounds: service.settings.maxToolRounds,
        request,
        stream,
        token,
        log: service.log,
      });
      const session = runtime.sessions.get(sessionId);
      const active = session?.active_skills ?? [];
      metadata.activeSkills = active.map((a) => a.name);
      // The SKILL.md files this answer was built on: what is loaded now and what the model touched.
      const used = new Set([...active.map((a) => a.name), ...outcome.usedSkills]);
      for (const name of used) {
        const loc = active.find((a) => a.name === name)?.location ?? registry.usable().find((r) => r.name === name)?.location;
        if (loc) stream.reference(vscode.Uri.file(loc));
      }
      if (outcome.error) return { metadata, errorDetails: { message: outcome.error } };
      return { metadata };
    } finally {
      leave();
    }
  };
}

/** Follow-ups: what to do next after each kind of answer. */
function followups(result: vscode.ChatResult): vscode.ChatFollowup[] {
  const m = result.metadata as SkillsResultMetadata | undefined;
  if (!m) return [];
  if (m.command === 'list') return [{ prompt: 'Which skill fits my task?', label: 'Ask which skill fits your task' }];
  if (m.activeSkills?.length) return [{ prompt: 'all', command: 'unload', label: `Unload ${m.activeSkills.join(', ')}` }];
  return [{ prompt: '', command: 'list', label: 'List the available skills' }];
}

/** Registers the `@skills` chat participant. */
export function registerParticipant(context: vscode.ExtensionContext, service: SkillsService, router: SessionRouter): void {
  const participant = vscode.chat.createChatParticipant(PARTICIPANT.id, createSkillsHandler(service, router));
  participant.iconPath = new vscode.ThemeIcon('book');
  participant.followupProvider = { provideFollowups: (result) => followups(result) };
  context.subscriptions.push(participant);
}
