// What a front end gets from `createAgentSkills(...).tools()`: the skill tools as a facade over the runtime, never the
// runtime itself. Every member is a function (or a value) the factory binds to the current runtime, so a front end
// cannot reach the runtime's skill source, its audit log or its session store object, and the runtime's own shape can
// change without the surfaces following. test/build/assembly.test.ts holds that no front end names SkillsRuntime and
// that the facade hands out no part.
import type { AuditSink } from '../catalog/catalogAudit';
import type { SkillRecord } from '../registry/registryTypes';
import { loadedContentFor } from './loadedContent';
import type { LoadedSkillContent } from '../prompt/promptTypes';
import type { SessionState } from './runtimeTypes';
import type { SkillContentCache } from './skillContent';
import type { SessionStore } from './sessionStore';
import type { SkillsRuntime } from './skillsRuntime';

/** The sessions as a front end reads and tidies them (lists, views, the MCP server's handle sessions). */
export interface SessionsView {
  /** Session files that could not be read when the store opened (each named, with why). */
  readonly loadProblems: readonly { file: string; problem: string }[];
  list(): SessionState[];
  get(id: string): SessionState | undefined;
  clear(id: string): Promise<SessionState>;
  delete(id: string): Promise<boolean>;
  /** Takes a session whose state another store kept (an MCP handle session) into memory; see SessionStore.adopt. */
  adopt(state: SessionState): void;
  /** Lets go of a session held in memory only (an MCP handle session whose call ended); see SessionStore.forget. */
  forget(id: string): void;
  flush(): Promise<void>;
}

type RuntimeCalls = 'toolNames' | 'runsScripts' | 'openSession' | 'beginTurn' | 'invoke' | 'index' | 'compose' | 'checkToolPermission' | 'preApprovedTools' | 'setLoadMode' | 'onDidChange' | 'flush' | 'runScript' | 'checkRun';

/** The skill tools and sessions, as every front end (VS Code, the CLI, the MCP server) and every tool descriptor uses them. */
export interface SkillTools extends Pick<SkillsRuntime, RuntimeCalls> {
  readonly sessions: SessionsView;
  /** Where a call that the runtime does not audit itself writes its audit lines; undefined when audit is off. */
  readonly audit?: AuditSink;
  /** The skills the tools serve (what list_skills and find_skills show). */
  served(): readonly SkillRecord[];
  /** The session's loaded skills with their current text (from the overlay where the source has one). */
  loadedContent(session: SessionState, cache: SkillContentCache): Promise<{ active: LoadedSkillContent[]; warnings: string[] }>;
  /** A scratch copy for previews (see SkillsRuntime.scratch), behind the same facade. */
  scratch(sessionId?: string): SkillTools;
}

/** The facade over one runtime: bound calls, no field holding the runtime or one of its parts. */
export function skillToolsOf(runtime: SkillsRuntime): SkillTools {
  const store: SessionStore = runtime.sessions;
  const sessions: SessionsView = {
    get loadProblems() {
      return store.loadProblems;
    },
    list: () => store.list(),
    get: (id) => store.get(id),
    clear: (id) => store.clear(id),
    delete: (id) => store.delete(id),
    adopt: (state) => store.adopt(state),
    forget: (id) => store.forget(id),
    flush: () => store.flush(),
  };
  const log = runtime.audit;
  return {
    toolNames: runtime.toolNames,
    runsScripts: runtime.runsScripts,
    sessions,
    ...(log ? { audit: { append: (entry) => log.append(entry) } satisfies AuditSink } : {}),
    openSession: (id, mode) => runtime.openSession(id, mode),
    beginTurn: (id, request) => runtime.beginTurn(id, request),
    invoke: (tool, input, call) => runtime.invoke(tool, input, call),
    index: () => runtime.index(),
    compose: (id, messages) => runtime.compose(id, messages),
    checkToolPermission: (id, tool) => runtime.checkToolPermission(id, tool),
    preApprovedTools: (id) => runtime.preApprovedTools(id),
    setLoadMode: (id, mode) => runtime.setLoadMode(id, mode),
    onDidChange: (listener) => runtime.onDidChange(listener),
    flush: () => runtime.flush(),
    runScript: (input, options) => runtime.runScript(input, options),
    checkRun: (input, call) => runtime.checkRun(input, call),
    served: () => runtime.source.list(),
    loadedContent: (session, cache) => loadedContentFor(session, cache, runtime.source),
    scratch: (id) => skillToolsOf(runtime.scratch(id)),
  };
}
