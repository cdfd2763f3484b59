// Runtime sessions on MCP 2026-07-28, which has no protocol sessions: the server mints a state handle the first
// time a tool call needs a session, returns it with the answer, and the client passes it back as the tool argument
// `session` (SEP-2567's explicit handles). Between calls the session's state lives only in the state store
// (sessionStateStore.ts: the state folder, or Redis shared by replicas), so any replica can answer any call: it
// loads the state, runs the tool in a runtime session held in memory, saves the state and forgets it.
import type { AuditEntry } from '../../core/audit/auditLog';
import type { SkillTools } from '../../core/runtime/skillTools';
import type { SessionState } from '../../core/runtime/runtimeTypes';
import type { SessionChange } from '../../core/runtime/sessionStore';
import { handleKey, isHandle, MAX_SUBSCRIPTION_BYTES, MAX_SUBSCRIPTION_URI, MAX_SUBSCRIPTIONS, mintHandle, STATE_TTL_MS, storedExtras, type LoadedSession, type SessionStateStore, type StoredSession } from '../../core/runtime/sessionStateStore';
import { invalidParams } from './requestError';

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

/** A problem with the session a call names: the tool answers with it as its error (`code`), naming the fix. */
export class HandleSessionError extends Error {
  constructor(
    readonly code: 'unknown_session' | 'session_conflict',
    message: string,
  ) {
    super(message);
  }
}

/** The tool result of a call whose session cannot be used: an error result the model reads, with its code. */
export function sessionErrorResult(e: HandleSessionError): Record<string, unknown> {
  return { content: [{ type: 'text', text: `Error (${e.code}): ${e.message}` }], isError: true };
}

const shownHandle = (handle: unknown) => (typeof handle === 'string' ? `'${handle.slice(0, 12)}…'` : `of type ${typeof handle}`);

/** A handle that is malformed or unknown to the store. */
export class UnknownHandleError extends HandleSessionError {
  constructor(handle: unknown, storeName: string) {
    super(
      'unknown_session',
      `${SESSION_ARG} ${shownHandle(handle)} is not a session of this server (${isHandle(handle) ? `none in the ${storeName}: it expired after ${STATE_TTL_MS / 3_600_000} hours unused, or was never given here` : 'not a handle this server gives'}). Call again without "${SESSION_ARG}" to start a new session, then load the skills again.`,
    );
  }
}

/** How many times a call saves its session before it gives up because other writers keep saving it first. */
export const MAX_SAVE_ATTEMPTS = 8;

/** Other calls saved the session first every time this one tried: its changes were not saved. */
export class SessionConflictError extends HandleSessionError {
  constructor(handle: string, why: string) {
    super(
      'session_conflict',
      `Session ${shownHandle(handle)}: this call's changes were not saved: ${why}. Call again with the same "${SESSION_ARG}" (it holds what the other calls saved), and make the calls of one session one after another, not at the same time.`,
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
  /**
   * 2025-11-25 sessions kept in the store too (`--state-store`), keyed by their Mcp-Session-Id, so any replica can
   * serve one: `open` at initialize, `run` around each tool call, `has` to tell a session another replica created,
   * `close` when the client ends it.
   */
  readonly legacy: {
    /** `elicitation`: the client declared it at initialize (kept, so a replica that did not create the session knows). */
    open(mcpSessionId: string, o?: { elicitation?: boolean }): Promise<void>;
    /** Whether the session's client declared elicitation at initialize. */
    elicits(mcpSessionId: string): Promise<boolean>;
    /**
     * Runs a tool call in the stored session. `pause(wait)` lets the session go while `wait` runs (a question to the
     * user): what the call did so far is saved, the session's other calls on this replica go ahead, and after `wait`
     * the call goes on in the session as they left it.
     */
    run<T>(mcpSessionId: string, fn: (sessionId: () => Promise<string>, pause: SessionPause) => Promise<T>): Promise<T>;
    has(mcpSessionId: string): Promise<boolean>;
    close(mcpSessionId: string): Promise<void>;
    /**
     * `resources/subscribe` (on) and `resources/unsubscribe` (off), kept with the session in the store, so the replica
     * holding the session's stream notifies of a subscription another replica took. Removed with the session.
     */
    subscribe(mcpSessionId: string, uri: string, on: boolean): Promise<void>;
    /** The URIs the session subscribed to, on whichever replica (none when the session is gone). */
    subscriptions(mcpSessionId: string): Promise<ReadonlySet<string>>;
  };
  /** Keeps an audit entry of an open handle session with its state (the runtime's audit log calls this for every entry). */
  noteAudit(entry: AuditEntry): void;
  /** Keeps a change made to an open handle session (the runtime's sessions call this), to apply again on a newer state. */
  noteChange(sessionId: string, change: SessionChange): void;
}

/** The store key of a 2025-11-25 session: the digest of its Mcp-Session-Id (a random UUID), apart from handles' keys. */
const legacyKey = (mcpSessionId: string) => handleKey(`mcp-session-id:${mcpSessionId}`);

/** A 2025-11-25 session whose state is no longer in the store. */
export class LegacySessionGoneError extends HandleSessionError {
  constructor(mcpSessionId: string, storeName: string) {
    super('unknown_session', `MCP session ${mcpSessionId.slice(0, 64)} has no state in the ${storeName}: it was ended (DELETE) or expired after ${STATE_TTL_MS / 3_600_000} hours unused. Initialize a new session, then load the skills again.`);
  }
}

/** Runs `wait` with the call's session let go (saved, and open to the session's other calls), then takes it back. */
export type SessionPause = <R>(wait: () => Promise<R>) => Promise<R>;

/** What one call did to its session: its new audit entries and its changes, in order. */
interface CallRecord {
  audit: AuditEntry[];
  changes: SessionChange[];
}

/**
 * Handle sessions of a runtime over a store. Calls on one handle in this process run one after another; calls on
 * one handle in several processes (replicas) may run at once, and each save compares and sets: a call whose session
 * another saved meanwhile applies its own changes again to the newer state (the load it made is added to the skills
 * the other loaded, never lost) and saves that, up to {@link MAX_SAVE_ATTEMPTS} times.
 */
export function handleSessions(runtime: SkillTools, store: SessionStateStore, now: () => Date = () => new Date()): HandleSessions {
  /** Calls on one session in this process hold its key one at a time (they share its runtime session id). */
  const queues = new Map<string, Promise<void>>();
  const acquire = async (key: string): Promise<() => void> => {
    const prev = queues.get(key) ?? Promise.resolve();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const tail = prev.then(() => held);
    queues.set(key, tail);
    void tail.then(() => {
      if (queues.get(key) === tail) queues.delete(key);
    });
    await prev;
    return release;
  };
  const serialized = async <T>(key: string, fn: () => Promise<T>): Promise<T> => {
    const release = await acquire(key);
    try {
      return await fn();
    } finally {
      release();
    }
  };
  /** What each open handle session's call did, by runtime session id: saved with its state. */
  const calls = new Map<string, CallRecord>();
  /** Saves what the call made of `loaded` (undefined: a new session); on a lost race, its changes again on the newer state. */
  const save = async (handle: string, key: string, state: SessionState, loaded: LoadedSession | undefined, call: CallRecord) => {
    let base = loaded;
    let next: StoredSession = { state, audit: [...(loaded?.audit ?? []), ...call.audit], ...storedExtras(loaded) };
    for (let attempt = 1; ; attempt++) {
      if (await store.save(key, next, base?.generation ?? 0)) return;
      if (attempt >= MAX_SAVE_ATTEMPTS) throw new SessionConflictError(handle, `other calls on the same session saved it first ${attempt} times in a row`);
      // A short random pause, so writers that collided do not collide again in step.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 * attempt));
      base = await store.load(key);
      if (!base) throw new UnknownHandleError(handle, store.name);
      const again = structuredClone(base.state);
      for (const change of call.changes) {
        try {
          change(again);
        } catch (e) {
          throw new SessionConflictError(handle, `another call changed the session meanwhile, and this call's change no longer applies (${(e as Error).message.slice(0, 300)})`);
        }
      }
      again.updated_at = now().toISOString();
      next = { state: again, audit: [...base.audit, ...call.audit], ...storedExtras(base) };
    }
  };
  /**
   * Runs `fn` in the session stored under `target` (a handle's, or a 2025-11-25 session's key); `target` undefined:
   * a new handle is minted when `fn` asks for a session. `gone` is the error when the store holds none. `lock`: the
   * caller holds the target's key by it, which {@link SessionPause} lets go and takes back.
   */
  const inSession = async <T>(target: { key: string; label: string; gone: () => Error; create?: boolean } | undefined, fn: (sessionId: () => Promise<string>, pause: SessionPause) => Promise<T>, lock?: { release: () => void }) => {
    let handle = target?.label;
    let key = target?.key;
    let loaded = key === undefined ? undefined : await store.load(key);
    if (target && !loaded && !target.create) throw target.gone();
    let call: CallRecord = { audit: [], changes: [] };
    let opened: string | undefined;
    const sessionId = async () => {
      if (opened) return opened;
      if (key === undefined) {
        handle = mintHandle();
        key = handleKey(handle);
      }
      const id = `${RUNTIME_PREFIX}${key.slice(0, 32)}`;
      calls.set(id, call);
      opened = id;
      if (loaded) runtime.sessions.adopt({ ...loaded.state, id });
      else await runtime.openSession(id, 'session');
      return id;
    };
    const pause: SessionPause = async (wait) => {
      if (!opened || !lock || key === undefined) return wait();
      const id = opened;
      const state = runtime.sessions.get(id);
      runtime.sessions.forget(id);
      calls.delete(id);
      if (state) await save(handle as string, key, state, loaded, call);
      lock.release();
      try {
        return await wait();
      } finally {
        lock.release = await acquire(key);
        loaded = await store.load(key);
        if (!loaded) {
          opened = undefined;
          throw target?.gone() ?? new UnknownHandleError(handle, store.name);
        }
        call = { audit: [], changes: [] };
        calls.set(id, call);
        runtime.sessions.adopt({ ...loaded.state, id });
      }
    };
    try {
      const value = await fn(sessionId, pause);
      return { value, handle: opened ? handle : undefined };
    } finally {
      if (opened) {
        const state = runtime.sessions.get(opened);
        runtime.sessions.forget(opened);
        calls.delete(opened);
        if (state) await save(handle as string, key as string, state, loaded, call);
      }
    }
  };
  /**
   * Changes a 2025-11-25 session's stored value besides its runtime state (`change` returns false: nothing to save),
   * compare and set like a tool call's save, so a change made on one replica while another saves is not lost.
   */
  const updateLegacy = (mcpSessionId: string, change: (stored: StoredSession) => boolean | void): Promise<void> => {
    const key = legacyKey(mcpSessionId);
    return serialized(key, async () => {
      for (let attempt = 1; ; attempt++) {
        const loaded = await store.load(key);
        if (!loaded) throw new LegacySessionGoneError(mcpSessionId, store.name);
        const { generation, ...stored } = loaded;
        if (change(stored) === false) return;
        if (await store.save(key, stored, generation)) return;
        if (attempt >= MAX_SAVE_ATTEMPTS) throw new SessionConflictError(mcpSessionId, `other requests of the session saved it first ${attempt} times in a row`);
      }
    });
  };
  const legacyTarget = (mcpSessionId: string, create = false) => ({ key: legacyKey(mcpSessionId), label: mcpSessionId, create, gone: () => new LegacySessionGoneError(mcpSessionId, store.name) });
  return {
    store,
    run(handle, fn) {
      if (handle === undefined) return inSession(undefined, fn);
      if (!isHandle(handle)) return Promise.reject(new UnknownHandleError(handle, store.name));
      return serialized(handleKey(handle), () => inSession({ key: handleKey(handle), label: handle, gone: () => new UnknownHandleError(handle, store.name) }, fn));
    },
    legacy: {
      async open(mcpSessionId, o) {
        await serialized(legacyKey(mcpSessionId), () => inSession(legacyTarget(mcpSessionId, true), (sessionId) => sessionId()));
        if (o?.elicitation) await updateLegacy(mcpSessionId, (stored) => void (stored.elicitation = true));
      },
      async run(mcpSessionId, fn) {
        const key = legacyKey(mcpSessionId);
        const lock = { release: await acquire(key) };
        try {
          return (await inSession(legacyTarget(mcpSessionId), fn, lock)).value;
        } finally {
          lock.release();
        }
      },
      async has(mcpSessionId) {
        return (await store.load(legacyKey(mcpSessionId))) !== undefined;
      },
      close: (mcpSessionId) => store.remove(legacyKey(mcpSessionId)),
      subscribe(mcpSessionId, uri, on) {
        if (uri.length > MAX_SUBSCRIPTION_URI) return Promise.reject(invalidParams(`resources/${on ? '' : 'un'}subscribe: the uri is ${uri.length} characters, over the ${MAX_SUBSCRIPTION_URI} this server keeps; subscribe to a shorter resource URI.`));
        return updateLegacy(mcpSessionId, (stored) => {
          const subs = new Set(stored.subscriptions ?? []);
          if (subs.has(uri) === on) return false;
          if (on) {
            if (subs.size >= MAX_SUBSCRIPTIONS) throw invalidParams(`This session already has ${MAX_SUBSCRIPTIONS} subscriptions; unsubscribe from some first.`);
            if ([...subs, uri].reduce((n, u) => n + Buffer.byteLength(u), 0) > MAX_SUBSCRIPTION_BYTES) throw invalidParams(`This session's subscribed URIs would take over ${MAX_SUBSCRIPTION_BYTES} bytes; unsubscribe from some first.`);
            subs.add(uri);
          } else subs.delete(uri);
          stored.subscriptions = [...subs];
        });
      },
      async elicits(mcpSessionId) {
        return (await store.load(legacyKey(mcpSessionId)))?.elicitation === true;
      },
      async subscriptions(mcpSessionId) {
        return new Set((await store.load(legacyKey(mcpSessionId)))?.subscriptions ?? []);
      },
    },
    noteAudit(entry) {
      calls.get(entry.session)?.audit.push(entry);
    },
    noteChange(sessionId, change) {
      calls.get(sessionId)?.changes.push(change);
    },
  };
}
