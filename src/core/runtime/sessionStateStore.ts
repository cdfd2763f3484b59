// Where the state behind an MCP state handle lives (MCP 2026-07-28 has no sessions: the server mints a handle,
// the client passes it back as a tool argument, SEP-2567). One interface, two stores: a folder of this machine
// (the default: one process, as the runtime's own sessions) and Redis (redisStateStore.ts), which several
// replicas behind a load balancer share. Both keep a session's whole state (loaded skills in load order, docs,
// lifecycle, turn) as one JSON value keyed by the SHA-256 of its handle, never the handle itself: whoever reads
// the store, a state folder or the audit log cannot act as a client holding the handle.
import { createHash, randomBytes } from 'node:crypto';
import * as path from 'node:path';
import type { WritableHost } from '../host/fileWrites';
import { asBuffer } from '../host/skillsHost';
import { z } from 'zod';
import type { AuditEntry } from '../audit/auditLog';
import type { SessionState } from './runtimeTypes';
import { sessionStateOf } from './sessionStore';

/** The most bytes one session's saved state may take; a larger value is refused, never parsed. */
export const MAX_STATE_BYTES = 256 * 1024;
/** A session not used for this long is gone (a Redis key's expiry; the folder store checks the file's age). */
export const STATE_TTL_MS = 24 * 60 * 60 * 1000;

/** The most audit entries a session keeps in the store (its newest; every replica's audit log has them all too). */
export const MAX_AUDIT_ENTRIES = 100;

/** What the store keeps of one session: its runtime state and the audit trail of its calls, whichever replica made them. */
export interface StoredSession {
  state: SessionState;
  audit: AuditEntry[];
}

/** The state of handle sessions, by key (the handle's digest: {@link handleKey}). */
export interface SessionStateStore {
  /** Names the store in every error: its kind and where it is, e.g. `state folder /x/handles` or `Redis redis://h:6379/0`. */
  readonly name: string;
  /** The saved session, or undefined when there is none (never saved, expired or removed). Throws {@link StateStoreError}. */
  load(key: string): Promise<StoredSession | undefined>;
  /** Saves the whole session, replacing what was there, and starts its time to live again. */
  save(key: string, session: StoredSession): Promise<void>;
  remove(key: string): Promise<void>;
  close(): Promise<void>;
}

/** A store that failed or answered what cannot be used; the message names the store, the key's file or field and what to do. */
export class StateStoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StateStoreError';
  }
}

const HANDLE_PREFIX = 'ash_';
const HANDLE_RE = /^ash_[A-Za-z0-9_-]{43}$/;

/** A new handle: 256 random bits, so one cannot be guessed. */
export function mintHandle(): string {
  return HANDLE_PREFIX + randomBytes(32).toString('base64url');
}

/** True for a string shaped like a handle this server mints (checked before any store is asked). */
export function isHandle(v: unknown): v is string {
  return typeof v === 'string' && HANDLE_RE.test(v);
}

/** The key a handle's state is stored under: its SHA-256, hex. */
export function handleKey(handle: string): string {
  return createHash('sha256').update(handle).digest('hex');
}

const auditSchema = z
  .object({ time: z.string(), session: z.string(), action: z.string(), outcome: z.string(), duration_ms: z.number(), arguments: z.unknown(), skill: z.string().optional(), digest: z.string().optional(), details: z.record(z.string(), z.unknown()).optional() })
  .passthrough();
const storedSchema = z.object({ v: z.literal(1), state: z.unknown(), audit: z.array(auditSchema).max(MAX_AUDIT_ENTRIES) });

/** Parses a stored value, bounded in size first; a bad value names the store and the key. */
export function decodeStored(storeName: string, key: string, bytes: Buffer): StoredSession {
  if (bytes.length > MAX_STATE_BYTES) throw new StateStoreError(`${storeName}: the state of session ${key.slice(0, 16)}… is over the ${MAX_STATE_BYTES}-byte bound; it was not read. Remove that entry (the client starts a new session).`);
  try {
    const v = storedSchema.parse(JSON.parse(bytes.toString('utf8')));
    return { state: sessionStateOf(v.state), audit: v.audit as AuditEntry[] };
  } catch (e) {
    const why = e instanceof z.ZodError ? e.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') : (e as Error).message;
    throw new StateStoreError(`${storeName}: the state of session ${key.slice(0, 16)}… cannot be used (${why.slice(0, 300)}); remove that entry (the client starts a new session).`);
  }
}

/** The stored text of a session: its newest audit entries, as many as fit the size bound with the state. */
export function encodeStored(storeName: string, s: StoredSession): string {
  let audit = s.audit.slice(-MAX_AUDIT_ENTRIES);
  for (;;) {
    const text = JSON.stringify({ v: 1, state: s.state, audit });
    if (Buffer.byteLength(text) <= MAX_STATE_BYTES) return text;
    if (!audit.length) throw new StateStoreError(`${storeName}: the state of session ${s.state.id} is over the ${MAX_STATE_BYTES}-byte bound and was not saved; unload skills or start a new session.`);
    audit = audit.slice(Math.ceil(audit.length / 2));
  }
}

/** Most sessions the folder store keeps in memory besides their files (the least recently used leave memory first). */
const FOLDER_CACHE = 1000;

/**
 * The default store: one JSON file per handle under `<stateDir>/handles`, for one process (as the runtime's own
 * sessions). Like the runtime's session files, writes are atomic (the host's temp + rename), coalesced per session
 * and run right after the call's tick, off its path; the newest state is kept in memory meanwhile, and `close()`
 * waits for the writes.
 */
export function folderStateStore(stateDir: string, files: WritableHost, now: () => number = Date.now): SessionStateStore {
  const dir = path.join(stateDir, 'handles');
  const name = `state folder ${dir}`;
  const cache = new Map<string, string>();
  const pending = new Map<string, string | null>();
  let draining: Promise<void> | undefined;
  const fileOf = (key: string) => {
    if (!/^[0-9a-f]{64}$/.test(key)) throw new StateStoreError(`${name}: '${key.slice(0, 80)}' is not a session key (64 hex digits).`);
    return path.join(dir, `${key}.json`);
  };
  const remember = (key: string, text: string) => {
    cache.delete(key);
    cache.set(key, text);
    for (const k of cache.keys()) {
      if (cache.size <= FOLDER_CACHE) break;
      cache.delete(k);
    }
  };
  const drain = async () => {
    try {
      while (pending.size) {
        const batch = [...pending];
        pending.clear();
        await Promise.all(
          batch.map(async ([key, state]) => {
            try {
              if (state) await files.writeFile(fileOf(key), state);
              else await files.remove(fileOf(key));
            } catch (e) {
              process.stderr.write(`${name}: the state of session ${key.slice(0, 16)}… was not written: ${(e as Error).message}\n`);
            }
          }),
        );
      }
    } finally {
      draining = undefined;
    }
  };
  const queue = (key: string, state: string | null) => {
    pending.set(key, state);
    draining ??= new Promise<void>((resolve) => setImmediate(resolve)).then(drain);
  };
  return {
    name,
    async load(key) {
      const file = fileOf(key);
      // In memory (or evicted from it but its write or removal not yet on disk): the newest value.
      const held = cache.get(key) ?? pending.get(key);
      if (held === null) return undefined;
      if (held !== undefined) {
        const s = decodeStored(name, key, Buffer.from(held));
        return Date.parse(s.state.updated_at) + STATE_TTL_MS < now() ? undefined : s;
      }
      const stamp = await files.stat(file);
      if (!stamp) return undefined;
      if (now() - stamp.mtimeMs > STATE_TTL_MS) {
        queue(key, null);
        return undefined;
      }
      if (stamp.size > MAX_STATE_BYTES) throw new StateStoreError(`${name}: ${file} is ${stamp.size} bytes, over the ${MAX_STATE_BYTES}-byte bound; it was not read. Delete it (the client starts a new session).`);
      let read;
      try {
        read = await files.readFile(file, { maxBytes: MAX_STATE_BYTES });
      } catch (e) {
        throw new StateStoreError(`${name}: ${file} cannot be read (${(e as Error).message.slice(0, 300)}); delete it (the client starts a new session).`);
      }
      if (!read) return undefined;
      const bytes = asBuffer(read.bytes);
      const stored = decodeStored(name, key, bytes);
      remember(key, bytes.toString('utf8'));
      return stored;
    },
    async save(key, session) {
      fileOf(key);
      const text = encodeStored(name, session);
      remember(key, text);
      queue(key, text);
    },
    async remove(key) {
      fileOf(key);
      cache.delete(key);
      queue(key, null);
    },
    async close() {
      while (draining) await draining;
    },
  };
}
