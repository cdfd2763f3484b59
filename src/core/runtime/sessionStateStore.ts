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

/** The most resource subscriptions one session keeps (a 2025-11-25 session's `resources/subscribe`). */
export const MAX_SUBSCRIPTIONS = 1000;
/** The longest resource URI a subscription may name. */
export const MAX_SUBSCRIPTION_URI = 2048;
/** The most bytes a session's subscribed URIs may take together (they share the session's {@link MAX_STATE_BYTES}). */
export const MAX_SUBSCRIPTION_BYTES = 64 * 1024;

/**
 * What the store keeps of one session: its runtime state, the audit trail of its calls and the resource URIs its
 * client subscribed to, whichever replica took each (the replica holding the session's stream reads them to notify).
 */
export interface StoredSession {
  state: SessionState;
  audit: AuditEntry[];
  subscriptions?: string[];
  /** A 2025-11-25 session whose client declared elicitation at initialize (so every replica knows it is to be asked). */
  elicitation?: true;
}

/** The fields of a stored session besides its state and audit, as they are kept (none when empty). */
export function storedExtras(s: Pick<Partial<StoredSession>, 'subscriptions' | 'elicitation'> | undefined): Pick<StoredSession, 'subscriptions' | 'elicitation'> {
  return { ...(s?.subscriptions?.length ? { subscriptions: s.subscriptions.slice() } : {}), ...(s?.elicitation ? { elicitation: true as const } : {}) };
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
  /**
   * The key every process over this store signs what it hands a client to give back (an MCP `requestState`) with:
   * 32 random bytes, made by the first process that asks and read by the others, so a replica verifies what another signed.
   */
  signingKey(): Promise<Buffer>;
  /**
   * Records `key` (64 hex digits) as used for `ttlMs`: true the first time, false when any process over the store
   * recorded it before and it has not expired (a confirmation answered once is not answered again by a replay).
   * Expired records go by themselves (Redis: PX; the state folder: later claims sweep a few each).
   */
  claimOnce(key: string, ttlMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/** Bytes of a {@link SessionStateStore.signingKey}. */
export const SIGNING_KEY_BYTES = 32;

/** A stored signing key (hex) as bytes; anything else is refused naming where it is and the fix. */
export function signingKeyOf(where: string, hex: string): Buffer {
  const t = hex.trim();
  if (!new RegExp(`^[0-9a-f]{${SIGNING_KEY_BYTES * 2}}$`).test(t)) throw new StateStoreError(`${where} is not a signing key (${SIGNING_KEY_BYTES * 2} hex digits); delete it and the next start makes a new one (confirmations in flight are asked again).`);
  return Buffer.from(t, 'hex');
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
const storedSchema = z.object({
  v: z.literal(1),
  g: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  state: z.unknown(),
  audit: z.array(auditSchema).max(MAX_AUDIT_ENTRIES),
  subscriptions: z.array(z.string().max(MAX_SUBSCRIPTION_URI)).max(MAX_SUBSCRIPTIONS).optional(),
  elicitation: z.literal(true).optional(),
});

/** A copy of a stored session that its holder may change (the folder store keeps the decoded one). */
function copyStored(s: StoredSession): StoredSession {
  return { state: structuredClone(s.state), audit: s.audit.slice(), ...storedExtras(s) };
}

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
    return { state: sessionStateOf(v.state), audit: v.audit as AuditEntry[], ...storedExtras(v), generation: v.g ?? 0 };
  } catch (e) {
    const why = e instanceof z.ZodError ? e.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') : (e as Error).message;
    throw new StateStoreError(`${storeName}: the state of session ${key.slice(0, 16)}… cannot be used (${why.slice(0, 300)}); remove that entry (the client starts a new session).`);
  }
}

/** The stored text of a session as `generation`: its newest audit entries, as many as fit the size bound with the state. */
export function encodeStored(storeName: string, s: StoredSession, generation: number): string {
  return encodeKept(storeName, s, generation).text;
}

/** {@link encodeStored}, with the audit entries the text kept. */
function encodeKept(storeName: string, s: StoredSession, generation: number): { text: string; audit: AuditEntry[] } {
  let audit = s.audit.slice(-MAX_AUDIT_ENTRIES);
  const extras = storedExtras(s);
  for (;;) {
    const text = JSON.stringify({ v: 1, g: generation, state: s.state, audit, ...extras });
    if (Buffer.byteLength(text) <= MAX_STATE_BYTES) return { text, audit };
    if (!audit.length) throw new StateStoreError(`${storeName}: the state of session ${s.state.id} is over the ${MAX_STATE_BYTES}-byte bound and was not saved; unload skills, unsubscribe from resources or start a new session.`);
    audit = audit.slice(Math.ceil(audit.length / 2));
  }
}

/** How long a save waits for another process's lock on the same session file before it fails (ms). */
const FOLDER_LOCK_TIMEOUT_MS = 5000;
/** Most used-key files one claim looks at, and removes, when sweeping expired ones (see folderStateStore's claimOnce). */
const SWEEP_LOOKS = 16;
const SWEEP_REMOVALS = 4;
/** Most session files whose last content the folder store remembers with their stamp (least recently used leave first). */
const FOLDER_KNOWN = 1000;

/** One of a session's two files in the state folder, with its stamp, bytes and generation. */
interface SlotRead {
  file: string;
  bytes: Buffer;
  generation: number;
  mtimeMs: number;
}

/**
 * The default store: one JSON file per handle under `<stateDir>/handles`, in one of two names, `<key>.json` and
 * `<key>.b.json`. A save never replaces a file in place: under the session's lock (`<key>.json.lock`, shared by every
 * process over the folder) it reads the stored generation, and when it is the one expected writes the new state
 * under the name not in use (temp + rename onto a free name) and only then removes the old one. So a reader, which
 * takes no lock, always finds a whole state (the newer of the two files when it sees both), and a process killed at
 * any point of a save leaves the previous or the new state, never none. Renaming onto an existing file is what this
 * avoids: ext4 (auto_da_alloc) starts writing the new file's data to disk on such a rename, which cost ~2 ms a call.
 * Nothing is flushed: a power loss (not a process crash) may lose sessions saved in the last seconds before it, which
 * then read as unknown or unusable and their clients start new ones. A file whose stamp (inode, size, mtime) is the
 * one last seen here is not read again outside the lock: every save makes a new inode.
 */
export function folderStateStore(stateDir: string, files: WritableHost, now: () => number = Date.now): SessionStateStore {
  const dir = path.join(stateDir, 'handles');
  const name = `state folder ${dir}`;
  // By file: its stamp, bytes and what they decode to (set once decoded, or by the save that wrote them), so a
  // session used from this process is neither read nor parsed again while no other process saves it.
  const known = new Map<string, { stamp: string; bytes: Buffer; decoded?: StoredSession }>();
  let madeDir = false;
  let signing: Buffer | undefined;
  const slotsOf = (key: string): [string, string] => {
    if (!/^[0-9a-f]{64}$/.test(key)) throw new StateStoreError(`${name}: '${key.slice(0, 80)}' is not a session key (64 hex digits).`);
    return [path.join(dir, `${key}.json`), path.join(dir, `${key}.b.json`)];
  };
  const stampOf = (s: FileStamp) => `${s.dev ?? ''}:${s.ino ?? ''}:${s.size}:${s.mtimeMs}`;
  const remember = (file: string, stamp: string, bytes: Buffer, decoded?: StoredSession) => {
    known.delete(file);
    known.set(file, { stamp, bytes, decoded });
    for (const k of known.keys()) {
      if (known.size <= FOLDER_KNOWN) break;
      known.delete(k);
    }
  };
  /** One file's content, or undefined when it is not there (also when it went between the stat and the read). */
  const readSlot = async (file: string, fresh: boolean): Promise<SlotRead | undefined> => {
    const stamp = await files.stat(file);
    // An empty file is what a power loss leaves of a save not yet on disk (a save never writes one): no session.
    if (!stamp || stamp.size === 0) return undefined;
    if (stamp.size > MAX_STATE_BYTES) throw new StateStoreError(`${name}: ${file} is ${stamp.size} bytes, over the ${MAX_STATE_BYTES}-byte bound; it was not read. Delete it (the client starts a new session).`);
    const seen = known.get(file);
    let bytes = !fresh && seen?.stamp === stampOf(stamp) ? seen.bytes : undefined;
    if (!bytes) {
      let got;
      try {
        got = await files.readFile(file, { maxBytes: MAX_STATE_BYTES });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw new StateStoreError(`${name}: ${file} cannot be read (${(e as Error).message.slice(0, 300)}); delete it (the client starts a new session).`);
      }
      if (!got) return undefined;
      // Read after the stat: the bytes are at least as new as the stamp, so a later stamp never pairs with older bytes.
      bytes = asBuffer(got.bytes);
      remember(file, stampOf(stamp), bytes);
    }
    return { file, bytes, generation: generationOf(bytes.subarray(0, GENERATION_HEAD_BYTES).toString('utf8')), mtimeMs: stamp.mtimeMs };
  };
  /** Both files of a session, the newer first (the one a save wrote last; the other, if any, is being replaced or was left by a crash). */
  const readSlots = async (key: string, fresh: boolean): Promise<SlotRead[]> => {
    const got = (await Promise.all(slotsOf(key).map((f) => readSlot(f, fresh)))).filter((s): s is SlotRead => s !== undefined);
    return got.sort((a, b) => b.generation - a.generation);
  };
  const removeFile = async (file: string) => {
    known.delete(file);
    await files.remove(file);
  };
  const locked = async <T>(key: string, fn: () => Promise<T>): Promise<T> => {
    const lock = `${slotsOf(key)[0]}.lock`;
    try {
      if (!madeDir) await files.mkdir(dir);
      madeDir = true;
      return await files.withLock(lock, fn, { timeoutMs: FOLDER_LOCK_TIMEOUT_MS });
    } catch (e) {
      madeDir = false;
      if (e instanceof StateStoreError) throw e;
      throw new StateStoreError(`${name}: the state of session ${key.slice(0, 16)}… was not saved (${(e as Error).message.slice(0, 300)}).`);
    }
  };
  /** Whether a used key's file still holds its claim: younger than its own recorded lifetime (or `ttlMs`, for a file without one). */
  const claimLive = async (file: string, ttlMs: number): Promise<boolean> => {
    const seen = await files.stat(file);
    if (!seen) return false;
    return now() - seen.mtimeMs <= Math.max(ttlMs, await recordedTtl(file));
  };
  const recordedTtl = async (file: string): Promise<number> => {
    let got;
    try {
      got = await files.readFile(file, { maxBytes: 32 });
    } catch {
      return 0; // gone or unreadable: no recorded lifetime
    }
    const n = got ? Number(asBuffer(got.bytes).toString('utf8')) : NaN;
    return Number.isSafeInteger(n) && n > 0 ? n : 0;
  };
  /**
   * Removes used keys' files past their lifetime, a few per claim: at most {@link SWEEP_LOOKS} files looked at (from a
   * random place in the listing) and {@link SWEEP_REMOVALS} removed, each under its key's lock and only when, read
   * again there, it is still expired. A claim of that key holds the same lock, so it sees the file or no file, both of
   * which it treats alike (expired is free): a sweep never frees a live claim. Each claim adds one file and can
   * remove several, so the folder stays about as large as the claims of one lifetime.
   */
  const sweepUsed = async (usedDir: string, justClaimed: string, ttlMs: number) => {
    const names = ((await files.readDirectory(usedDir)) ?? []).map((e) => e.name).filter((n) => /^[0-9a-f]{64}$/.test(n) && n !== justClaimed);
    const start = names.length ? randomBytes(4).readUInt32BE(0) % names.length : 0;
    let removed = 0;
    for (let i = 0; i < Math.min(names.length, SWEEP_LOOKS) && removed < SWEEP_REMOVALS; i++) {
      const file = path.join(usedDir, names[(start + i) % names.length]);
      const seen = await files.stat(file);
      if (!seen || now() - seen.mtimeMs <= ttlMs) continue; // the recorded lifetime is at least the claim's: read only for the old
      const gone = await files.withLock(`${file}.lock`, async () => {
        if (!(await files.stat(file)) || (await claimLive(file, ttlMs))) return false;
        await files.remove(file);
        return true;
      }, { timeoutMs: FOLDER_LOCK_TIMEOUT_MS });
      if (gone) removed++;
    }
  };
  return {
    name,
    async load(key) {
      let slots = await readSlots(key, false);
      // Neither file seen: a save may have written one and removed the other between the two looks. Under the lock
      // no save is under way, so the answer is final (only a session that is not there pays for it).
      if (!slots.length && (await files.stat(dir, { folders: true }))) slots = await locked(key, () => readSlots(key, true));
      const newest = slots[0];
      if (!newest) return undefined;
      if (now() - newest.mtimeMs > STATE_TTL_MS) {
        await locked(key, async () => {
          for (const s of await readSlots(key, true)) if (now() - s.mtimeMs > STATE_TTL_MS) await removeFile(s.file);
        });
        return undefined;
      }
      const seen = known.get(newest.file);
      if (seen?.bytes === newest.bytes && seen.decoded) return { ...copyStored(seen.decoded), generation: newest.generation };
      const decoded = decodeStored(name, key, newest.bytes);
      if (seen?.bytes === newest.bytes) seen.decoded = copyStored(decoded);
      return decoded;
    },
    async save(key, session, expected) {
      const { text, audit } = encodeKept(name, session, expected + 1);
      const [first, second] = slotsOf(key);
      return locked(key, async () => {
        // Read again under the lock, not from what this process saw last: the generation compared must be the stored one.
        const [current, older] = await readSlots(key, true);
        if ((current?.generation ?? 0) !== expected) return false;
        const target = current?.file === first ? second : first;
        // A file still under the free name (a save killed before its removal) goes first, so the write renames onto no file.
        if (older) await removeFile(older.file);
        // Not flushed to disk on the call's path (as the runtime's own session files): see above for what a power loss costs.
        await files.writeFile(target, text, { durable: false });
        const stamp = await files.stat(target);
        if (stamp) remember(target, stampOf(stamp), Buffer.from(text), copyStored({ ...session, audit }));
        if (current) await removeFile(current.file);
        return true;
      });
    },
    async remove(key) {
      await locked(key, async () => {
        for (const file of slotsOf(key)) await removeFile(file);
      });
    },
    async signingKey() {
      if (signing) return signing;
      const file = path.join(dir, 'signing.key');
      const read = async () => {
        const got = await files.readFile(file, { maxBytes: 1024 });
        return got ? signingKeyOf(file, asBuffer(got.bytes).toString('utf8')) : undefined;
      };
      // Made once under a lock every process over the folder takes, readable by this user only.
      signing = (await read()) ?? (await files.mkdir(dir), await files.withLock(`${file}.lock`, async () => {
        const made = await read();
        if (made) return made;
        const fresh = randomBytes(SIGNING_KEY_BYTES);
        await files.writeFile(file, fresh.toString('hex'), { mode: 0o600 });
        return fresh;
      }, { timeoutMs: FOLDER_LOCK_TIMEOUT_MS }));
      return signing;
    },
    async claimOnce(key, ttlMs) {
      slotsOf(key); // checks it is 64 hex digits
      const usedDir = path.join(dir, 'used');
      const file = path.join(usedDir, key);
      await files.mkdir(usedDir);
      const claimed = await files.withLock(`${file}.lock`, async () => {
        if (await claimLive(file, ttlMs)) return false;
        // The file holds its own lifetime, so a later claim's sweep expires it by that, not by its own.
        await files.writeFile(file, String(ttlMs), { durable: false });
        return true;
      }, { timeoutMs: FOLDER_LOCK_TIMEOUT_MS });
      // After the claim's lock is let go (a sweep takes other keys' locks: never two at once).
      if (claimed) await sweepUsed(usedDir, key, ttlMs).catch(() => undefined);
      return claimed;
    },
    async close() {},
  };
}
