import * as path from 'node:path';
import { AuditLog, type AuditLogOptions } from '../audit/auditLog';
import { composeCall } from '../prompt/composer';
import { findMentions } from '../index/mentions';
import { CatalogIndex, hostBodyReader, SKILL_INDEX_FILE } from '../index/catalogIndex';
import { DEFAULT_CATALOG_BUDGET } from '../prompt/catalogBudget';
import type { SkillIndex } from '../index/skillIndex';
import { FIND_TOOL } from '../tools/toolNames';
import { memoizeCounter, o200kCounter } from '../prompt/tokenCounter';
import type { CatalogBudget, CatalogToolNamesForPrompt, ChatMessage, ComposeResult, ContentPlacement, SkillToolNames, TokenCounter } from '../prompt/promptTypes';
import { checkToolPermissionFor, parseAllowedTools, type ToolPermission } from './toolPermission';
import { listDocs, selectDocs } from './docsTools';
import { ToolError } from '../tools/toolError';
import { succeeded, type ToolFailure, type ToolResult, type ToolSuccess, type TouchedSkill } from '../tools/toolResult';
import { inputError } from '../tools/zodProblems';
import { catalogFor, loadedContentFor } from './loadedContent';
import { loadSkills, unloadSkills } from './loadTools';
import { readSkillFile } from './readTool';
import { auditCall } from './invocationAudit';
import { checkSkillScript, prepareScriptRun, runSkillScript, type CheckedScript, type RunScriptResult } from './runScriptTool';
import { SessionStore, type SessionStoreOptions } from './sessionStore';
import { SkillContentCache } from './skillContent';
import type { SyncWritableHost } from '../host/fileWrites';
import { localDisk } from '../host/localDisk';
import { resolveUsable, type ToolCall, type ToolContext } from './toolContext';
import { SKILL_TOOL_NAMES, toolInputSchemas, type RunScriptInput, type SkillToolName } from './runtimeToolInputs';
import type { ArtifactReader, Disposable, LoadMode, ScriptExecutor, SessionEvent, SessionState, SkillSource } from './runtimeTypes';

/** Configuration of a runtime; every field but `source` has a default. */
export interface SkillsRuntimeOptions {
  source: SkillSource;
  /**
   * The factory's host: where the runtime reads skill files (bodies, docs, the read tool, body references) and
   * keeps its state (session files, the audit log), so a runtime over an in-memory host never touches the disk for
   * them. The disk (Node's synchronous calls, one small file at a time) by default. Scripts run on the real disk
   * (sandbox binds need one), through the executor.
   */
  files?: SyncWritableHost;
  /** Folder for `sessions/` and `audit.jsonl` in `files`; omit to keep sessions in memory and skip the audit file. */
  stateDir?: string;
  executor?: ScriptExecutor;
  artifacts?: ArtifactReader;
  /**
   * Each session's artifacts are its own (a server whose clients are different people, over HTTP): a run saves
   * into its session's store, and `read` and `artifact://` inputs look only there. Default false: one store.
   */
  artifactsPerSession?: boolean;
  /** Load mode of new sessions (default `turn`). */
  loadMode?: LoadMode;
  /** Most skills loaded at once (default 5). */
  maxLoadedSkills?: number;
  /** Most bytes one read returns (default 256 KiB). */
  maxReadBytes?: number;
  /** Where loaded content goes (default `instructions`). */
  placement?: ContentPlacement;
  /** Show each skill's SKILL.md path in the catalog (default false: the tools address skills by name, seed 000's tool-only agent). */
  catalogLocations?: boolean;
  /** Budget of `<available_skills>` (default 4 000 tokens and 16 000 characters). */
  catalogBudget?: CatalogBudget;
  /** Replaces the tooling guidance after the catalog; `''` turns it off. */
  toolingGuidance?: string;
  /** Tokens of loaded content above which compose warns (default 10 000). */
  loadedContentBudget?: number;
  /** The host offers the model only the unified catalog's tools (seed 003's `minimal` surface); see `ComposeOptions.catalogTools`. */
  catalogTools?: CatalogToolNamesForPrompt;
  /** No tool is offered (an MCP server with --no-tools): the rules tell the model to read skill:// resources. */
  resourcesOnly?: boolean;
  /** The names the host registers the tools under (default the bare names). */
  toolNames?: Partial<SkillToolNames>;
  /** Seed 002's restricted mode: tools not in a loaded skill's allowed-tools are denied. */
  restrictedTools?: boolean;
  /** Load skills the user names with `$name` or `#name` when a turn begins (default true). */
  autoLoadMentions?: boolean;
  /** Counts tokens (default o200k). */
  tokenCounter?: TokenCounter;
  /**
   * The search tool `<available_skills>`' closing line points to when the catalog does not fit (default
   * find_skills); false when the host does not offer it.
   */
  findTool?: string | false;
  /** Where the runtime reports what it cannot do but works around (a saved index it ignored); default stderr. */
  log?: (message: string) => void;
  /**
   * The skill index to keep in line with the source (a scratch copy shares its parent's); default a new one
   * reading bodies from `files`, saved to `<stateDir>/skill-index.bin` when there is a state folder.
   */
  skillIndex?: CatalogIndex;
  /** Sessions whose state another store keeps (SessionStoreOptions.storedElsewhere): never written to `stateDir`. */
  sessionsStoredElsewhere?: (id: string) => boolean;
  /** Told each change applied to such a session (SessionStoreOptions.changedElsewhere). */
  sessionChangedElsewhere?: SessionStoreOptions['changedElsewhere'];
  /** Audit log settings, or false for none (default `<stateDir>/audit.jsonl` when stateDir is set). */
  audit?: Partial<AuditLogOptions> | false;
  now?: () => Date;
}


/** The runtime the extension, the chat participant and the CLI front. */
export interface SkillsRuntime {
  readonly sessions: SessionStore;
  readonly source: SkillSource;
  readonly audit?: AuditLog;
  readonly toolNames: SkillToolNames;
  /** Whether it has an executor: without one run_script refuses every call (`no_executor`), and front ends offer no script tool. */
  readonly runsScripts: boolean;
  /** The session with this id, created when missing. */
  openSession(id?: string, loadMode?: LoadMode): Promise<SessionState>;
  /** Starts a user turn: clears `turn`/`once` skills, records the request, loads `$name`/`#name` mentions. */
  beginTurn(sessionId: string, request?: string): Promise<{ session: SessionState; autoLoaded: string[]; errors: string[] }>;
  /** Runs one tool (by bare or host name). Model-facing problems come back as `ok: false`, never thrown. */
  invoke(tool: string, input: unknown, call: ToolCall): Promise<ToolResult>;
  /** The skill index, brought in line with the source's skills first (only changed skills are indexed again). */
  index(): Promise<SkillIndex>;
  /** Builds one model call from the session and the history; `once` skills shown here are then offloaded. */
  compose(sessionId: string, messages: readonly ChatMessage[]): Promise<ComposeResult>;
  /** Seed 002's permission check for a tool the model wants to use. */
  checkToolPermission(sessionId: string, toolName: string): ToolPermission;
  /** Tools pre-approved by the loaded skills' allowed-tools. */
  preApprovedTools(sessionId: string): string[];
  setLoadMode(sessionId: string, mode: LoadMode): Promise<SessionState>;
  onDidChange(listener: (e: SessionEvent) => void): Disposable;
  /** Waits for pending session writes, audit lines and the executor's background work. */
  flush(): Promise<void>;
  /**
   * Runs a skill's script for the user, outside any chat session: `run_script`'s checks, executor (fresh
   * workspace, environment, sandbox, limits) and audit line (with `caller` as its session, default `user`),
   * but no session is created or changed. The skill need not be loaded; `input.skill` names it.
   */
  runScript(input: RunScriptInput & { skill: string }, options?: { signal?: AbortSignal; caller?: string }): Promise<ToolResult>;
  /**
   * Whether `run_script` with `input` would run in the call's session, decided as the call decides it (its input
   * schema, the loaded skill, the runner's checks before staging) without running, auditing or changing anything:
   * the skill's name, or the refusal the call would return (`unknown_session` for a session not made yet: nothing is
   * loaded there). A front end asks its user only about a run that can happen.
   */
  checkRun(input: unknown, call: ToolCall): Promise<ToolResult<CheckedScript>>;
  /**
   * A scratch copy of this runtime for previews: the same source, options, tools and composition, with sessions
   * in memory only (holding a copy of session `sessionId` when given), no executor and no audit log. Turns,
   * loads and composes run there exactly as here, and never reach this runtime's sessions or listeners.
   */
  scratch(sessionId?: string): SkillsRuntime;
}

/** A runtime tool's refusal: its ToolError, or any other error it threw as `run_refused` with that error's words. */
function refused(tool: string, e: unknown): ToolFailure {
  const err = e instanceof ToolError ? e : new ToolError('run_refused', (e as Error).message, 'Check the input and try again; if it keeps failing, tell the user.');
  return { ok: false, tool, error: err.toShape() };
}

/** Creates the runtime. Nothing runs until a session is opened or a tool invoked. */
export function createSkillsRuntime(options: SkillsRuntimeOptions): SkillsRuntime {
  const now = options.now ?? (() => new Date());
  const files = options.files ?? localDisk;
  const sessions = new SessionStore({ stateDir: options.stateDir, files, defaultLoadMode: options.loadMode ?? 'turn', now, storedElsewhere: options.sessionsStoredElsewhere, changedElsewhere: options.sessionChangedElsewhere });
  const content = new SkillContentCache(files);
  const counter = memoizeCounter(options.tokenCounter ?? o200kCounter);
  const log = options.log ?? ((m: string) => console.warn(m));
  // With a state folder, the index is saved there so the next start puts unchanged skills back unread.
  const indexCache = options.stateDir ? { host: files, file: path.join(options.stateDir, SKILL_INDEX_FILE), log } : undefined;
  const skillIndex = options.skillIndex ?? new CatalogIndex(hostBodyReader(files), indexCache);
  let savedAt: number | undefined;
  const syncedIndex = async (): Promise<SkillIndex> => {
    const change = await skillIndex.syncFrom(options.source);
    // Saved after the first sync that read anything, then at most once a minute: a skill changed since the last
    // save is only read again at the next start (its stamp no longer matches), never used stale.
    const read = change.added + change.changed - (savedAt === undefined ? skillIndex.reused : 0);
    if (indexCache && !options.skillIndex && (read > 0 || change.removed > 0) && (savedAt === undefined || Date.now() - savedAt > 60_000)) {
      savedAt = Date.now();
      try {
        await skillIndex.save();
      } catch (e) {
        log(`Skill index: could not save ${indexCache.file}: ${(e as Error).message}. The next start reads every skill again.`);
      }
    }
    return skillIndex.index;
  };
  const maxLoaded = options.maxLoadedSkills ?? 5;
  const toolNames: SkillToolNames = { load: 'load', unload: 'unload', read: 'read', run_script: 'run_script', list_docs: 'list_docs', select_docs: 'select_docs', ...options.toolNames };
  const byCallName = new Map<string, SkillToolName>(SKILL_TOOL_NAMES.flatMap((n) => [[n, n], [toolNames[n], n]] as [string, SkillToolName][]));
  const auditFile = options.audit === false ? undefined : (options.audit?.file ?? (options.stateDir ? path.join(options.stateDir, 'audit.jsonl') : undefined));
  const audit = auditFile && options.audit !== false ? new AuditLog({ files, ...options.audit, file: auditFile }) : undefined;
  const ctx: ToolContext = {
    sessions,
    source: options.source,
    content,
    executor: options.executor,
    artifacts: options.artifacts,
    artifactScope: (call) => (options.artifactsPerSession ? call.sessionId : undefined),
    limits: { maxLoadedSkills: maxLoaded, maxReadBytes: options.maxReadBytes ?? 256 * 1024 },
    now,
  };

  const run = (tool: SkillToolName, input: unknown, call: ToolCall): Promise<ToolSuccess<unknown>> => {
    const parsed = toolInputSchemas[tool].safeParse(input ?? {});
    if (!parsed.success) throw inputError(toolNames[tool], parsed.error);
    const data = parsed.data as never;
    switch (tool) {
      case 'load':
        return loadSkills(ctx, call, data);
      case 'unload':
        return unloadSkills(ctx, call, data);
      case 'read':
        return readSkillFile(ctx, call, data);
      case 'run_script':
        return runSkillScript(ctx, call, data);
      case 'list_docs':
        return listDocs(ctx, call, data);
      case 'select_docs':
        return selectDocs(ctx, call, data);
    }
  };

  const invoke = async (toolName: string, input: unknown, call: ToolCall): Promise<ToolResult> => {
    const started = now();
    const t0 = performance.now();
    const tool = byCallName.get(toolName);
    let invocation: ToolResult;
    let touched: TouchedSkill[] = [];
    try {
      if (!tool) throw new ToolError('unknown_tool', `There is no skill tool '${toolName}'.`, `Use one of: ${SKILL_TOOL_NAMES.map((n) => toolNames[n]).join(', ')}.`);
      if (!sessions.get(call.sessionId)) await sessions.ensure(call.sessionId);
      await options.source.prepare?.(tool, input);
      invocation = await run(tool, input, call);
      touched = invocation.skills ?? [];
    } catch (e) {
      invocation = refused(tool ?? toolName, e);
    }
    if (audit) {
      auditCall(audit, { started, durationMs: performance.now() - t0, session: call.sessionId, tool, toolName, input, invocation, touched, state: sessions.get(call.sessionId) });
    }
    return invocation;
  };

  const loadedTools = (sessionId: string) => {
    const s = sessions.get(sessionId);
    return (s?.active_skills ?? []).map((a) => {
      let properties: Record<string, unknown> | undefined;
      try {
        properties = (options.source.resolve(a.id) ?? options.source.resolve(a.name))?.properties;
      } catch {
        // Broken or ambiguous since it was loaded: it grants nothing.
      }
      return { name: a.name, allowedTools: parseAllowedTools(properties?.['allowed-tools']) };
    });
  };

  return {
    sessions,
    source: options.source,
    audit,
    toolNames,
    runsScripts: options.executor !== undefined,
    openSession: (id, loadMode) => sessions.ensure(id, loadMode),
    index: syncedIndex,
    async beginTurn(sessionId, request) {
      await sessions.ensure(sessionId);
      await sessions.update(sessionId, 'begin-turn', (s) => {
        s.turn += 1;
        s.turn_started_at = now().toISOString();
        s.request = request;
        if (s.load_mode !== 'session') {
          for (const a of s.active_skills) s.lifecycle[a.name] = 'discovered';
          s.active_skills = [];
        }
      });
      const autoLoaded: string[] = [];
      const errors: string[] = [];
      if (request && options.autoLoadMentions !== false) {
        const index = await syncedIndex();
        const names = [...new Set(findMentions(request, index).explicit.map((id) => index.nameOf(id) as string))].slice(0, maxLoaded);
        if (names.length) {
          const r = await invoke('load', { names, mode: 'add' }, { sessionId });
          if (r.ok) autoLoaded.push(...names);
          else errors.push(r.error.message);
        }
      }
      return { session: sessions.get(sessionId) as SessionState, autoLoaded, errors };
    },
    invoke,
    async compose(sessionId, messages) {
      const session = sessions.get(sessionId) ?? (await sessions.ensure(sessionId));
      const { active, warnings } = await loadedContentFor(session, content, options.source);
      const index = await syncedIndex();
      const result = composeCall({
        index,
        request: session.request,
        catalog: catalogFor(options.source, session),
        active,
        messages,
        counter,
        options: {
          placement: options.placement ?? 'instructions',
          catalogBudget: options.catalogBudget ?? DEFAULT_CATALOG_BUDGET,
          toolingGuidance: options.toolingGuidance,
          catalogTools: options.catalogTools,
          resourcesOnly: options.resourcesOnly,
          loadedContentBudget: options.loadedContentBudget ?? 10_000,
          toolNames,
          maxLoadedSkills: maxLoaded,
          hideLocations: !options.catalogLocations,
          findTool: options.findTool === false ? undefined : (options.findTool ?? FIND_TOOL.name),
        },
      });
      result.warnings.unshift(...warnings);
      if (session.load_mode === 'once' && active.length) {
        const shown = new Set(active.map((a) => a.name));
        await sessions.update(sessionId, 'offload-once', (s) => {
          for (const a of s.active_skills) if (shown.has(a.name)) a.offloaded = true;
        });
      }
      return result;
    },
    checkToolPermission: (sessionId, toolName) =>
      checkToolPermissionFor(toolName, loadedTools(sessionId), options.restrictedTools ?? false, SKILL_TOOL_NAMES.flatMap((n) => [n, toolNames[n]])),
    preApprovedTools: (sessionId) => [...new Set(loadedTools(sessionId).flatMap((s) => s.allowedTools ?? []))],
    setLoadMode: (sessionId, mode) =>
      sessions.update(sessionId, 'load-mode', (s) => {
        if (s.load_mode === mode) return false;
        s.load_mode = mode;
      }),
    onDidChange: (listener) => sessions.onDidChange(listener),
    async flush() {
      await sessions.flush();
      await audit?.flush();
      await options.executor?.idle();
    },
    async runScript(input, o = {}) {
      const started = now();
      const t0 = performance.now();
      let invocation: ToolResult;
      let touched: TouchedSkill[] = [];
      try {
        const parsed = toolInputSchemas.run_script.safeParse(input ?? {});
        if (!parsed.success) throw inputError(toolNames.run_script, parsed.error);
        await options.source.prepare?.('run_script', input);
        const rec = resolveUsable(ctx, input.skill);
        touched = [{ name: rec.name, digest: rec.digest }];
        const execute = await prepareScriptRun(ctx, { id: rec.id, name: rec.name, root_dir: rec.rootDir }, parsed.data, o.signal);
        const result: RunScriptResult = { skill: rec.name, ...(await execute()) };
        invocation = succeeded('run_script', result, touched);
      } catch (e) {
        invocation = refused('run_script', e);
      }
      if (audit) auditCall(audit, { started, durationMs: performance.now() - t0, session: o.caller ?? 'user', tool: 'run_script', toolName: 'run_script', input, invocation, touched });
      return invocation;
    },
    async checkRun(input, call) {
      try {
        const parsed = toolInputSchemas.run_script.safeParse(input ?? {});
        if (!parsed.success) throw inputError(toolNames.run_script, parsed.error);
        await options.source.prepare?.('run_script', input);
        return succeeded('run_script', await checkSkillScript(ctx, call, parsed.data));
      } catch (e) {
        return refused('run_script', e);
      }
    },
    scratch(sessionId) {
      const copy = createSkillsRuntime({ ...options, skillIndex, stateDir: undefined, audit: false, executor: undefined, artifacts: undefined, tokenCounter: counter, now });
      const state = sessionId ? sessions.get(sessionId) : undefined;
      if (state) copy.sessions.adopt(state);
      return copy;
    },
  };
}
