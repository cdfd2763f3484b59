// Where the state behind an MCP state handle lives (MCP 2026-07-28 has no sessions: the server mints a handle,
// the client passes it back as a tool argument, SEP-2567). One interface, two stores: a folder of this machine
// (the default: one process, as the runtime's own sessions) and Redis (redisStateStore.ts), which several
// replicas behind a load balancer share. Both keep a session's whole state (loaded skills in load order, docs,
// lifecycle, turn) as one JSON value keyed by the SHA-256 of its handle, never the handle itself: whoever reads
// the store, a state folder or the audit log cannot act as a client holding the handle.
import { createHash, randomBytes } from 'node:crypto';
import * as path from 'node:path';
import type { WritableHost } from '../host/fileWrites';
import { asBuffer, type FileStamp } from '../host/skillsHost';
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

/** A session as loaded: what is stored, and its generation (how many saves made it; the value a save compares). */
export interface LoadedSession extends StoredSession {
  generation: number;
}

/**
 * The state of handle sessions, by key (the handle's digest: {@link handleKey}). Saves compare and set: each stored
 * value carries a generation, and a save names the generation it was computed from, so two writers of one session
 * (two replicas, two processes over one state folder) can never both replace it from the same value.
 */
export interface SessionStateStore {
  /** Names the store in every error: its kind and where it is, e.g. `state folder /x/handles` or `Redis redis://h:6379/0`. */
  readonly name: string;
  /** The saved session, or undefined when there is none (never saved, expired or removed). Throws {@link StateStoreError}. */
  load(key: string): Promise<LoadedSession | undefined>;
  /**
   * Saves the whole session as generation `expected + 1` and starts its time to live again, if the stored generation
   * is still `expected` (0: nothing stored). True when saved; false, with nothing written, when another writer saved first.
   */
  save(key: string, session: StoredSession, expected: number): Promise<boolean>;
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
const storedSchema = z.object({ v: z.literal(1), g: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(), state: z.unknown(), audit: z.array(auditSchema).max(MAX_AUDIT_ENTRIES) });

/**
 * The generation at the head of a stored value: {@link encodeStored} writes `{"v":1,"g":<n>,` first, so a store can
 * compare it without parsing the rest (Redis's script reads these bytes only). A value without one (written before
 * generations) is generation 0.
 */
export const GENERATION_HEAD = /^\{"v":1,"g":(\d{1,16}),/;
/** How many bytes of a value {@link GENERATION_HEAD} needs at most. */
export const GENERATION_HEAD_BYTES = 32;

/** The generation of a stored value's first bytes (0 when none is stored or the value has no generation). */
export function generationOf(head: string | undefined): number {
  const m = head ? GENERATION_HEAD.exec(head) : null;
  return m ? Number(m[1]) : 0;
}

/** Parses a stored value, bounded in size first; a bad value names the store and the key. */
export function decodeStored(storeName: string, key: string, bytes: Buffer): LoadedSession {
  if (bytes.length > MAX_STATE_BYTES) throw new StateStoreError(`${storeName}: the state of session ${key.slice(0, 16)}… is over the ${MAX_STATE_BYTES}-byte bound; it was not read. Remove that entry (the client starts a new session).`);
  try {
    const v = storedSchema.parse(JSON.parse(bytes.toString('utf8')));
    return { state: sessionStateOf(v.state), audit: v.audit as AuditEntry[], generation: v.g ?? 0 };
  } catch (e) {
    const why = e instanceof z.ZodError ? e.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') : (e as Error).message;
    throw new StateStoreError(`${storeName}: the state of session ${key.slice(0, 16)}… cannot be used (${why.slice(0, 300)}); remove that entry (the client starts a new session).`);
  }
}

/** The stored text of a session as `generation`: its newest audit entries, as many as fit the size bound with the state. */
export function encodeStored(storeName: string, s: StoredSession, generation: number): string {
  let audit = s.audit.slice(-MAX_AUDIT_ENTRIES);
  for (;;) {
    const text = JSON.stringify({ v: 1, g: generation, state: s.state, audit });
    if (Buffer.byteLength(text) <= MAX_STATE_BYTES) return text;
    if (!audit.length) throw new StateStoreError(`${storeName}: the state of session ${s.state.id} is over the ${MAX_STATE_BYTES}-byte bound and was not saved; unload skills or start a new session.`);
    audit = audit.slice(Math.ceil(audit.length / 2));
  }
}

/** How long a save waits for another process's lock on the same session file before it fails (ms). */
const FOLDER_LOCK_TIMEOUT_MS = 5000;
/** Most session files whose last content the folder store remembers with their stamp (least recently used leave first). */
const FOLDER_KNOWN = 1000;

/**
 * The default store: one JSON file per handle under `<stateDir>/handles`. Every load stats the file and every save
 * happens under the session file's lock (`<key>.json.lock`, shared by every process over the folder): it reads the
 * stored generation, writes only when it is the one expected, atomically (the host's temp + rename). So several
 * processes over one state folder (replicas on a shared volume) see each other's saves and never lose one. A file
 * whose stamp (inode, size, mtime) is the one last seen here is not read again: a rename by any process changes it.
 */
export function folderStateStore(stateDir: string, files: WritableHost, now: () => number = Date.now): SessionStateStore {
  const dir = path.join(stateDir, 'handles');
  const name = `state folder ${dir}`;
  const known = new Map<string, { stamp: string; bytes: Buffer }>();
  let madeDir = false;
  const fileOf = (key: string) => {
    if (!/^[0-9a-f]{64}$/.test(key)) throw new StateStoreError(`${name}: '${key.slice(0, 80)}' is not a session key (64 hex digits).`);
    return path.join(dir, `${key}.json`);
  };
  const stampOf = (s: FileStamp) => `${s.dev ?? ''}:${s.ino ?? ''}:${s.size}:${s.mtimeMs}`;
  const remember = (key: string, stamp: string, bytes: Buffer) => {
    known.delete(key);
    known.set(key, { stamp, bytes });
    for (const k of known.keys()) {
      if (known.size <= FOLDER_KNOWN) break;
      known.delete(k);
    }
  };
  /** The file's bytes, or undefined when there is none or it expired (then it is removed). */
  const read = async (key: string, file: string): Promise<Buffer | undefined> => {
    const stamp = await files.stat(file);
    if (!stamp) return undefined;
    if (now() - stamp.mtimeMs > STATE_TTL_MS) {
      known.delete(key);
      await files.remove(file);
      return undefined;
    }
    if (stamp.size > MAX_STATE_BYTES) throw new StateStoreError(`${name}: ${file} is ${stamp.size} bytes, over the ${MAX_STATE_BYTES}-byte bound; it was not read. Delete it (the client starts a new session).`);
    const seen = known.get(key);
    if (seen && seen.stamp === stampOf(stamp)) return seen.bytes;
    let got;
    try {
      got = await files.readFile(file, { maxBytes: MAX_STATE_BYTES });
    } catch (e) {
      throw new StateStoreError(`${name}: ${file} cannot be read (${(e as Error).message.slice(0, 300)}); delete it (the client starts a new session).`);
    }
    if (!got) return undefined;
    // Read after the stat: the bytes are at least as new as the stamp, so a later stamp never pairs with older bytes.
    const bytes = asBuffer(got.bytes);
    remember(key, stampOf(stamp), bytes);
    return bytes;
  };
  const locked = async <T>(file: string, fn: () => Promise<T>): Promise<T> => {
    try {
      if (!madeDir) await files.mkdir(dir);
      madeDir = true;
      return await files.withLock(`${file}.lock`, fn, { timeoutMs: FOLDER_LOCK_TIMEOUT_MS });
    } catch (e) {
      madeDir = false;
      if (e instanceof StateStoreError) throw e;
      throw new StateStoreError(`${name}: the state of session ${path.basename(file, '.json').slice(0, 16)}… was not saved (${(e as Error).message.slice(0, 300)}).`);
    }
  };
  return {
    name,
    async load(key) {
      const bytes = await read(key, fileOf(key));
      return bytes ? decodeStored(name, key, bytes) : undefined;
    },
    async save(key, session, expected) {
      const file = fileOf(key);
      const text = encodeStored(name, session, expected + 1);
      return locked(file, async () => {
        const bytes = await read(key, file);
        if (generationOf(bytes?.subarray(0, GENERATION_HEAD_BYTES).toString('utf8')) !== expected) return false;
        // Not flushed to disk on the call's path (as the runtime's own session files): a power loss may cost the
        // newest change of a session, never a torn file.
        await files.writeFile(file, text, { durable: false });
        const stamp = await files.stat(file);
        if (stamp) remember(key, stampOf(stamp), Buffer.from(text));
        return true;
      });
    },
    async remove(key) {
      const file = fileOf(key);
      known.delete(key);
      await locked(file, async () => void (await files.remove(file)));
    },
    async close() {},
  };
}
