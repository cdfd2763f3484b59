// "Agent Skills: Preview Prompt": what `@skills` would send for a request in a session, as a read-only document
// (scheme `agent-skills-preview`) that is recomposed on every refresh. The turn runs on a scratch copy of the
// runtime through the participant's own turn start and the runtime's own compose, so nothing is sent or saved.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { o200kCounter } from '../../core/prompt/tokenCounter';
import type { ChatMessage } from '../../core/prompt/promptTypes';
import { offeredTools } from '../chat/participant';
import { beginScratchTurn } from '../chat/turnStart';
import { isSessionNode } from '../tree/nodes';
import type { SkillsTree } from '../tree/registerTree';
import type { SkillsService } from '../skillsService';
import { previewText } from './previewText';

/** The URI scheme of prompt previews. */
export const PREVIEW_SCHEME = 'agent-skills-preview';

/** What a preview is of; `session` absent means a new session. */
export interface PreviewRequest {
  request: string;
  session?: string;
}

const LAST_REQUEST_KEY = 'agentSkills.previewRequest';

/** The preview's URI: the request and session travel in the query, so each pair is its own document. */
export function previewUri(p: PreviewRequest): vscode.Uri {
  return vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: '/Prompt preview.md', query: JSON.stringify(p) });
}

function parseUri(uri: vscode.Uri): PreviewRequest {
  try {
    const v = JSON.parse(uri.query) as Partial<PreviewRequest>;
    return { request: typeof v.request === 'string' ? v.request : '', ...(typeof v.session === 'string' ? { session: v.session } : {}) };
  } catch {
    return { request: '' };
  }
}

export class PromptPreviews implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  /** A new session's preview keeps one scratch id, so refreshes compare like with like. */
  private readonly newIds = new Map<string, string>();
  private readonly subscriptions: vscode.Disposable[];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly service: SkillsService,
    private readonly tree: SkillsTree,
    private readonly state: vscode.Memento,
  ) {
    // Open previews follow the skills, the sessions and the runtime rebuilt for new settings (a settings change
    // lands in service.settings a moment before the new runtime does; this refresh shows the runtime's answer).
    this.subscriptions = [service.onDidChangeSkills(() => this.refreshSoon()), service.onDidChangeSessions(() => this.refreshSoon())];
  }

  private refreshSoon(): void {
    if (!vscode.workspace.textDocuments.some((d) => d.uri.scheme === PREVIEW_SCHEME)) return;
    clearTimeout(this.timer);
    // One refresh for a burst of changes (a rescan fires per skill).
    this.timer = setTimeout(() => this.refreshAll(), 200);
  }

  private refreshAll(): void {
    for (const d of vscode.workspace.textDocuments) if (d.uri.scheme === PREVIEW_SCHEME) this.changed.fire(d.uri);
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const s of this.subscriptions) s.dispose();
    this.changed.dispose();
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    try {
      return await this.compose(parseUri(uri), uri.toString());
    } catch (e) {
      return `# Prompt preview failed\n\n${e instanceof Error ? e.message : String(e)}\n\nCheck the "Agent Skills" output (command "Agent Skills: Show Output"), then refresh.\n`;
    }
  }

  private async compose(p: PreviewRequest, key: string): Promise<string> {
    const { runtime, registry } = await this.service.ready();
    const existing = p.session !== undefined ? runtime.sessions.get(p.session) : undefined;
    if (p.session !== undefined && !existing) {
      return `# No such session\n\nSession ${p.session} no longer exists (it was deleted, or this window has other sessions). Run "Agent Skills: Preview Prompt" again and pick a session or a new one.\n`;
    }
    let sessionId = p.session;
    if (sessionId === undefined) {
      sessionId = this.newIds.get(key) ?? `preview-${randomUUID()}`;
      this.newIds.set(key, sessionId);
    }
    const { scratch, start: turn } = await beginScratchTurn(runtime, sessionId, p.request, this.service.pinnedFor(sessionId), p.session);
    const messages: ChatMessage[] = [{ role: 'user', content: p.request }];
    const composed = await scratch.compose(sessionId, messages);
    const session = scratch.sessions.get(sessionId);
    if (!session) throw new Error(`The scratch session ${sessionId} vanished while composing.`);
    const models = await vscode.lm.selectChatModels().then(
      (ms) => ms.map((m) => ({ name: m.name, maxInputTokens: m.maxInputTokens })),
      () => [],
    );
    const s = this.service.settings;
    return previewText({
      request: p.request,
      session,
      sessionLabel: existing ? `"${this.tree.sessions.label(existing)}"` : 'a new session',
      isNewSession: !existing,
      composed,
      messages,
      tools: offeredTools(this.service),
      records: registry.all(),
      settings: { placement: s.placement, toolSurface: s.toolSurface, catalogMaxTokens: s.catalogMaxTokens, catalogMaxChars: s.catalogMaxChars, maxLoadedSkills: s.maxLoadedSkills },
      models,
      turnErrors: turn.errors,
      trusted: vscode.workspace.isTrusted,
      generatedAt: new Date(),
      counter: o200kCounter,
    });
  }

  /** Recomposes an open preview (the given one, else the active editor's, else every open one). */
  refresh(uri?: vscode.Uri): string[] {
    const targets = uri
      ? [uri]
      : vscode.window.activeTextEditor?.document.uri.scheme === PREVIEW_SCHEME
        ? [vscode.window.activeTextEditor.document.uri]
        : vscode.workspace.textDocuments.filter((d) => d.uri.scheme === PREVIEW_SCHEME).map((d) => d.uri);
    for (const t of targets) this.changed.fire(t);
    return targets.map((t) => t.toString());
  }

  /**
   * The command. `arg` is a Sessions view node, or `{ request, session }` (automation; `session` omitted or
   * `"new"` for a new session); otherwise the user types the request and picks the session.
   */
  async open(arg?: unknown): Promise<string | undefined> {
    const given = (typeof arg === 'object' && arg !== null && !isSessionNode(arg) ? arg : {}) as { request?: unknown; session?: unknown };
    let request = typeof given.request === 'string' ? given.request : undefined;
    request ??= await vscode.window.showInputBox({
      title: 'Preview Prompt: the request',
      prompt: 'What you would ask @skills. Skills it names (or $name / #name) are ranked first, and $name / #name load them.',
      value: this.state.get<string>(LAST_REQUEST_KEY, ''),
      ignoreFocusOut: true,
    });
    if (request === undefined) return undefined;
    await this.state.update(LAST_REQUEST_KEY, request);
    let session: string | undefined;
    if (isSessionNode(arg)) session = arg.session.id;
    else if (typeof given.session === 'string') session = given.session === 'new' ? undefined : given.session;
    else if (typeof given.request !== 'string') {
      const sessions = await this.tree.sessions.sessions();
      const pick = await vscode.window.showQuickPick(
        [{ label: '$(add) New session', id: undefined as string | undefined }, ...sessions.map((x) => ({ label: this.tree.sessions.label(x), description: `${x.active_skills.length} active · ${x.load_mode}`, id: x.id as string | undefined }))],
        { placeHolder: 'Session whose next turn to preview', ignoreFocusOut: true },
      );
      if (!pick) return undefined;
      session = pick.id;
    }
    const uri = previewUri({ request, ...(session !== undefined ? { session } : {}) });
    const open = vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString());
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: false });
    // An already open preview shows what it showed last time; opening it again means "show it now".
    if (open) this.refresh(uri);
    return uri.toString();
  }
}
