import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { z } from 'zod';
import type { SyncWritableHost } from '../host/fileWrites';
import { localDisk } from '../host/localDisk';
import { answerOrUndefined, asBuffer } from '../host/skillsHost';
import { sweepTempFiles } from '../edit/atomicWrite';
import { ToolError } from '../tools/toolError';
import type { Disposable, LoadMode, SessionEvent, SessionState } from './runtimeTypes';
import { compareStrings } from '../text/compareStrings';

/** Options of a session store. */
export interface SessionStoreOptions {
  /** Folder for one JSON file per session; omit for memory only. */
  stateDir?: string;
  /**
   * Where the session files are read and written: the core's host (an in-memory host keeps them in memory, so a
   * second store over the same host finds them); default the disk. Synchronous reads: the store loads in its constructor.
   */
  files?: SyncWritableHost;
  /** Load mode of new sessions (default `turn`). */
  defaultLoadMode?: LoadMode;
  /** Clock, for tests. */
  now?: () => Date;
  /**
   * Sessions whose state is kept by another store (an MCP server's state handles: sessionStateStore.ts): held in
   * memory while a call runs, never written to `stateDir` and never loaded from it.
   */
  storedElsewhere?: (id: string) => boolean;
  /**
   * Told every change applied to a session stored elsewhere, with the change itself: that store applies the changes
   * again to a newer state when another writer saved the session first (handleSessions.ts).
   */
  changedElsewhere?: (id: string, change: SessionChange) => void;
}

/** A change to one session's state (`update`'s argument): returns false when it changed nothing. */
export type SessionChange = (s: SessionState) => void | boolean;

const activeSkillSchema = z.object({
  name: z.string(),
  id: z.string(),
  digest: z.string(),
  location: z.string(),
  root_dir: z.string(),
  docs: z.union([z.array(z.string()), z.literal('*')]),
  loaded_at: z.string(),
  loaded_turn: z.number(),
  load_call_id: z.string().optional(),
  docs_call_id: z.string().optional(),
  offloaded: z.boolean().optional(),
});

const sessionSchema = z.object({
  id: z.string().min(1),
  created_at: z.string(),
  updated_at: z.string(),
  load_mode: z.enum(['turn', 'once', 'session']),
  turn: z.number(),
  turn_started_at: z.string(),
  request: z.string().optional(),
  active_skills: z.array(activeSkillSchema),
  lifecycle: z.record(z.string(), z.enum(['discovered', 'loaded', 'executing', 'completed'])),
  last_used: z.record(z.string(), z.string()),
});

/** Checks a parsed value is a session's state; throws naming the first field that is wrong. */
export function sessionStateOf(value: unknown): SessionState {
  const parsed = sessionSchema.safeParse(value);
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  return parsed.data as SessionState;
}

/**
 * Holds many sessions side by side (one per chat conversation), tells listeners about every change,
 * and persists each session as `<stateDir>/sessions/<id>.json` with the host's atomic whole-file write,
 * so a runtime restarted on the same folder (after `flush()`) finds every session as it was.
 */
export class SessionStore {
  private readonly sessions = new Map<string, SessionState>();
  private readonly listeners = new Set<(e: SessionEvent) => void>();
  private readonly pending = new Map<string, SessionState>();
  private draining: Promise<void> | undefined;
  /** The removal of temp files left by older versions, started at load; `flush()` waits for it. */
  private sweeping: Promise<void> = Promise.resolve();
  private readonly dir?: string;
  private readonly files: SyncWritableHost;
  private readonly now: () => Date;
  /** Session files that could not be written, with the reason (the state stays in memory). */
  readonly writeErrors: { file: string; problem: string }[] = [];
  /** Files that could not be read at open, with the reason. */
  readonly loadProblems: { file: string; problem: string }[] = [];

  constructor(private readonly options: SessionStoreOptions = {}) {
    this.now = options.now ?? (() => new Date());
    this.files = options.files ?? localDisk;
    if (options.stateDir) {
      this.dir = path.join(options.stateDir, 'sessions');
      this.loadAll();
    }
  }

  /** Every session, oldest first. */
  list(): SessionState[] {
    return [...this.sessions.values()].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id)).map(clone);
  }

  /** A copy of one session, or undefined. */
  get(id: string): SessionState | undefined {
    const s = this.sessions.get(id);
    return s ? clone(s) : undefined;
  }

  /** The session with this id, created (and persisted) when missing; a new id when omitted. */
  async ensure(id: string = randomUUID(), loadMode?: LoadMode): Promise<SessionState> {
    const existing = this.sessions.get(id);
    if (existing) return clone(existing);
    const t = this.now().toISOString();
    const s: SessionState = {
      id,
      created_at: t,
      updated_at: t,
      load_mode: loadMode ?? this.options.defaultLoadMode ?? 'turn',
      turn: 0,
      turn_started_at: t,
      active_skills: [],
      lifecycle: {},
      last_used: {},
    };
    this.sessions.set(id, s);
    await this.persist(s);
    this.emit({ kind: 'created', sessionId: id, reason: 'create', session: clone(s) });
    return clone(s);
  }

  /**
   * Applies `change` to a copy of the session, stores it, writes it to disk and tells listeners.
   * `change` may return false to signal that nothing changed (no write, no event).
   */
  async update(id: string, reason: string, change: SessionChange): Promise<SessionState> {
    const current = this.sessions.get(id);
    if (!current) throw unknownSession(id);
    const next = clone(current);
    if (change(next) === false) return clone(current);
    if (this.options.storedElsewhere?.(id)) this.options.changedElsewhere?.(id, change);
    next.updated_at = this.now().toISOString();
    this.sessions.set(id, next);
    await this.persist(next);
    this.emit({ kind: reason === 'clear' ? 'cleared' : 'updated', sessionId: id, reason, session: clone(next) });
    return clone(next);
  }

  /** Puts a copy of `state` into this store as it is, with no write and no event: a scratch copy for a preview. */
  adopt(state: SessionState): void {
    this.sessions.set(state.id, clone(state));
  }

  /** Unloads every skill and forgets docs, lifecycle and recency; keeps the id and load mode. */
  clear(id: string): Promise<SessionState> {
    return this.update(id, 'clear', (s) => {
      s.active_skills = [];
      s.lifecycle = {};
      s.last_used = {};
      s.request = undefined;
    });
  }

  /** Drops a session from memory with no write and no event: its state lives in another store (`storedElsewhere`). */
  forget(id: string): void {
    this.sessions.delete(id);
    this.pending.delete(id);
  }

  /** Removes a session and its file. Returns false when there was none. */
  async delete(id: string): Promise<boolean> {
    if (!this.sessions.delete(id)) return false;
    this.pending.delete(id);
    await this.draining;
    // Created again while the queued writes ran: its file is its new state, not the deleted one.
    if (this.dir && !this.sessions.has(id) && !this.options.storedElsewhere?.(id)) await this.files.remove(this.fileOf(id));
    this.emit({ kind: 'deleted', sessionId: id, reason: 'delete' });
    return true;
  }

  /** Calls `listener` on every change; dispose to stop. A throwing listener does not stop the others. */
  onDidChange(listener: (e: SessionEvent) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Resolves once every queued write has reached the host (the disk by default). Hosts call it before they exit. */
  async flush(): Promise<void> {
    await this.sweeping;
    while (this.draining) await this.draining;
  }

  private emit(e: SessionEvent): void {
    for (const l of [...this.listeners]) {
      try {
        l(e);
      } catch {
        // A broken listener (e.g. a disposed view) must not break the runtime.
      }
    }
  }

  private fileOf(id: string): string {
    return path.join(this.dir as string, `${encodeURIComponent(id)}.json`);
  }

  /**
   * Queues the session for writing. Writes run right after the current tick, off the tool's path (a file
   * write costs milliseconds on a busy disk; a load should not), coalesced per session so only the newest
   * state is written, each as one atomic whole-file write of the host. `flush()` waits for them.
   */
  private persist(s: SessionState): Promise<void> {
    if (!this.dir || this.options.storedElsewhere?.(s.id)) return Promise.resolve();
    this.pending.set(s.id, s);
    if (!this.draining) this.draining = new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.drain());
    return Promise.resolve();
  }

  private async drain(): Promise<void> {
    try {
      while (this.pending.size) {
        const batch = [...this.pending.values()];
        this.pending.clear();
        await Promise.all(batch.map((s) => this.write(s)));
      }
    } finally {
      this.draining = undefined;
    }
  }

  /** Writes one session's file (folders made by the host); a write error is kept in `writeErrors`, never thrown. */
  private async write(s: SessionState): Promise<void> {
    if (!this.sessions.has(s.id)) return;
    const file = this.fileOf(s.id);
    try {
      // A session deleted while this write runs is not brought back: delete() waits for the writes, then removes it.
      await this.files.writeFile(file, `${JSON.stringify(s, null, 2)}\n`);
    } catch (e) {
      this.writeErrors.push({ file, problem: (e as Error).message });
    }
  }

  private loadAll(): void {
    const dir = this.dir as string;
    let entries;
    try {
      entries = this.files.readDirectory(dir);
    } catch {
      return;
    }
    const leftovers: string[] = [];
    for (const { name, kind } of [...(entries ?? [])].sort((a, b) => compareStrings(a.name, b.name))) {
      const file = path.join(dir, name);
      if (name.endsWith('.tmp')) {
        // A write of an older version interrupted before its rename: the .json next to it is the last complete state.
        if (kind !== 'directory') leftovers.push(file);
        continue;
      }
      if (!name.endsWith('.json')) continue;
      try {
        const read = this.files.readFile(file);
        if (!read) continue; // removed since the listing
        const parsed = sessionSchema.safeParse(JSON.parse(asBuffer(read.bytes).toString('utf8')));
        if (!parsed.success) {
          this.loadProblems.push({ file, problem: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') });
          continue;
        }
        if (!this.options.storedElsewhere?.(parsed.data.id)) this.sessions.set(parsed.data.id, parsed.data as SessionState);
      } catch (e) {
        this.loadProblems.push({ file, problem: (e as Error).message });
      }
    }
    // Removed behind the load (a host's removal may answer later); a leftover that cannot be removed is only clutter.
    // So are the temp files of atomic writes a crash left, once over a minute old (younger ones may be in flight).
    this.sweeping = Promise.all(leftovers.map((f) => answerOrUndefined(() => this.files.remove(f))))
      .then(() => sweepTempFiles(dir, 60_000, this.files))
      .then(() => undefined, () => undefined);
  }
}

function clone<T>(v: T): T {
  return structuredClone(v);
}

function unknownSession(id: string): ToolError {
  return new ToolError('unknown_session', `No session with id '${id}'.`, 'Start a new session (the chat creates one per conversation) or list sessions to find the id.');
}
