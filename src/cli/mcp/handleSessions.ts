// Runtime sessions on MCP 2026-07-28, which has no protocol sessions: the server mints a state handle the first
// time a tool call needs a session, returns it with the answer, and the client passes it back as the tool argument
// `session` (SEP-2567's explicit handles). Between calls the session's state lives only in the state store
// (sessionStateStore.ts: the state folder, or Redis shared by replicas), so any replica can answer any call: it
// loads the state, runs the tool in a runtime session held in memory, saves the state and forgets it.
import type { AuditEntry } from '../../core/audit/auditLog';
import type { SkillsRuntime } from '../../core/runtime/skillsRuntime';
import { handleKey, isHandle, mintHandle, STATE_TTL_MS, type SessionStateStore } from '../../core/runtime/sessionStateStore';

/** The tool argument that carries the handle. */
export const SESSION_ARG = 'session';
/** Where a result's `_meta` carries the handle too, for clients that thread it themselves. */
export const SESSION_META = 'io.github.agent-skills/session';
/** Runtime session ids of handle sessions (never written to the runtime's own sessions folder). */
const RUNTIME_PREFIX = 'mcp-h-';

/** The schema of the `session` argument, added to every tool on 2026-07-28. */
export const SESSION_ARG_SCHEMA = {
  type: 'string',
  description: `The session handle an earlier answer of this server gave ("Session: ash_…"). Pass it on every call to keep the skills you loaded; omit it on your first call and a new session starts. A handle unused for ${STATE_TTL_MS / 3_600_000} hours expires.`,
} as const;

/** True for the runtime ids of handle sessions: their state is the store's (SkillsRuntimeOptions.sessionsStoredElsewhere). */
export const isHandleSessionId = (id: string): boolean => id.startsWith(RUNTIME_PREFIX);

/** A handle that is malformed or unknown to the store: the tool answers with this as its error, naming the fix. */
export class UnknownHandleError extends Error {
  readonly code = 'unknown_session';
  constructor(handle: unknown, storeName: string) {
    const shown = typeof handle === 'string' ? `'${handle.slice(0, 12)}…'` : `of type ${typeof handle}`;
    super(
      `${SESSION_ARG} ${shown} is not a session of this server (${isHandle(handle) ? `none in the ${storeName}: it expired after ${STATE_TTL_MS / 3_600_000} hours unused, or was never given here` : 'not a handle this server gives'}). Call again without "${SESSION_ARG}" to start a new session, then load the skills again.`,
    );
  }
}

/** Runs tool calls in handle sessions over one store. */
export interface HandleSessions {
  readonly store: SessionStateStore;
  /**
   * Runs `fn` in the session of `handle`: `fn` asks for its runtime session id only if it needs one (a new handle is
   * minted then when none was given). The state is saved after `fn`, even when it threw. Returns the handle used.
   */
  run<T>(handle: unknown, fn: (sessionId: () => Promise<string>) => Promise<T>): Promise<{ value: T; handle?: string }>;
  /** Keeps an audit entry of an open handle session with its state (the runtime's audit log calls this for every entry). */
  noteAudit(entry: AuditEntry): void;
}

/** Handle sessions of a runtime over a store. Calls on one handle in this process run one after another. */
export function handleSessions(runtime: SkillsRuntime, store: SessionStateStore): HandleSessions {
  const queues = new Map<string, Promise<unknown>>();
  /** The audit trail of each open handle session, by runtime session id: saved with its state. */
  const trails = new Map<string, AuditEntry[]>();
  const serialized = <T>(key: string, fn: () => Promise<T>): Promise<T> => {
    const prev = queues.get(key) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    const tail = next.then(
      () => undefined,
      () => undefined,
    );
    queues.set(key, tail);
    void tail.then(() => {
      if (queues.get(key) === tail) queues.delete(key);
    });
    return next;
  };
  const inSession = async <T>(given: string | undefined, fn: (sessionId: () => Promise<string>) => Promise<T>) => {
    let handle = given;
    let key = given === undefined ? undefined : handleKey(given);
    const saved = key === undefined ? undefined : await store.load(key);
    const audit = saved?.audit ?? [];
    if (given !== undefined && !saved) throw new UnknownHandleError(given, store.name);
    let opened: string | undefined;
    const sessionId = async () => {
      if (opened) return opened;
      if (key === undefined) {
        handle = mintHandle();
        key = handleKey(handle);
      }
      const id = `${RUNTIME_PREFIX}${key.slice(0, 32)}`;
      trails.set(id, audit);
      opened = id;
      if (saved) runtime.sessions.adopt({ ...saved.state, id });
      else await runtime.openSession(id, 'session');
      return id;
    };
    try {
      const value = await fn(sessionId);
      return { value, handle: opened ? handle : undefined };
    } finally {
      if (opened) {
        const state = runtime.sessions.get(opened);
        runtime.sessions.forget(opened);
        trails.delete(opened);
        if (state) await store.save(key as string, { state, audit });
      }
    }
  };
  return {
    store,
    run(handle, fn) {
      if (handle === undefined) return inSession(undefined, fn);
      if (!isHandle(handle)) return Promise.reject(new UnknownHandleError(handle, store.name));
      return serialized(handleKey(handle), () => inSession(handle, fn));
    },
    noteAudit(entry) {
      trails.get(entry.session)?.push(entry);
    },
  };
}
