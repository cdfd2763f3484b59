// Where the state behind an MCP state handle lives (MCP 2026-07-28 has no sessions: the server mints a handle,
// the client passes it back as a tool argument, SEP-2567). One interface, two stores: a folder of this machine
// (folderStateStore.ts, the default: one process, as the runtime's own sessions) and Redis (redisStateStore.ts), which several
// replicas behind a load balancer share. Both keep a session's whole state (loaded skills in load order, docs,
// lifecycle, turn) as one JSON value keyed by the SHA-256 of its handle, never the handle itself: whoever reads
// the store, a state folder or the audit log cannot act as a client holding the handle.
import { createHash, randomBytes } from 'node:crypto';
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
   * The caller gives `session` up: a store may keep it as given (the folder store does, to answer the next load).
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
export function copyStored(s: StoredSession): StoredSession {
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
  return encodeKept(storeName, s, generation).bytes.toString('utf8');
}

/**
 * The JSON text of audit entries already encoded: an entry is never changed once queued (AuditLog.append gives the
 * redacted entry), and a session's entries are saved again with each of its calls, up to {@link MAX_AUDIT_ENTRIES}.
 */
const auditJson = new WeakMap<AuditEntry, string>();
function entryJson(e: AuditEntry): string {
  let text = auditJson.get(e);
  if (text === undefined) auditJson.set(e, (text = JSON.stringify(e)));
  return text;
}

/**
 * A session's stored bytes as {@link encodeKept} made them, with the audit entries they hold and where each entry's
 * JSON starts in them (`at`, one more: where the last one ends), so the next save of the session reuses those bytes.
 */
export interface KeptEncoding {
  bytes: Buffer;
  audit: AuditEntry[];
  at: number[];
}

/**
 * {@link encodeStored} as bytes, with the audit entries kept. The bytes are what `JSON.stringify` of the whole value
 * gives (`{"v":1,"g":…,"state":…,"audit":[…],…}`). `prev`, the session's previous encoding: the entries it holds
 * that this value keeps (the same entry objects, in order, then only new ones) are copied from its bytes, not encoded
 * again (a save adds an entry to up to 100 and drops the oldest: ~27 KB of JSON and UTF-8 each time otherwise).
 */
export function encodeKept(storeName: string, s: StoredSession, generation: number, prev?: KeptEncoding): KeptEncoding {
  const audit = s.audit.slice(-MAX_AUDIT_ENTRIES);
  const extras = storedExtras(s);
  const headText = `{"v":1,"g":${generation},"state":${JSON.stringify(s.state)},"audit":[`;
  const tailText = `]${extras.subscriptions ? `,"subscriptions":${JSON.stringify(extras.subscriptions)}` : ''}${extras.elicitation ? ',"elicitation":true' : ''}}`;
  const head = Buffer.from(headText, 'utf8');
  const tail = Buffer.from(tailText, 'utf8');
  const reused = prev ? reusable(prev, audit) : 0;
  if (prev && reused > 0) {
    const from = prev.audit.length - reused;
    const old = prev.bytes.subarray(prev.at[from], prev.at[prev.audit.length]);
    const fresh = audit.slice(reused).map((e) => Buffer.from(entryJson(e), 'utf8'));
    const length = head.length + old.length + fresh.reduce((n, b) => n + 1 + b.length, 0) + tail.length;
    if (length <= MAX_STATE_BYTES) {
      const at = prev.at.slice(from, prev.audit.length).map((o) => o - prev.at[from] + head.length);
      const parts = [head, old];
      let end = head.length + old.length;
      for (const b of fresh) {
        parts.push(COMMA, b);
        at.push(end + 1);
        end += 1 + b.length;
      }
      at.push(end);
      parts.push(tail);
      return { bytes: Buffer.concat(parts, length), audit, at };
    }
  }
  for (let kept = audit; ; kept = kept.slice(Math.ceil(kept.length / 2))) {
    const texts = kept.map(entryJson);
    const text = `${headText}${texts.join(',')}${tailText}`;
    const bytes = Buffer.from(text, 'utf8');
    if (bytes.length <= MAX_STATE_BYTES) {
      const at: number[] = [];
      let end = head.length;
      for (const t of texts) {
        at.push(end);
        end += Buffer.byteLength(t, 'utf8') + 1;
      }
      at.push(texts.length ? end - 1 : end);
      return { bytes, audit: kept, at };
    }
    if (!kept.length) throw new StateStoreError(`${storeName}: the state of session ${s.state.id} is over the ${MAX_STATE_BYTES}-byte bound and was not saved; unload skills, unsubscribe from resources or start a new session.`);
  }
}

const COMMA = Buffer.from(',', 'utf8');

/**
 * How many of `audit`'s first entries are the last entries `prev` holds, the same objects in the same order (then
 * their bytes in `prev` are theirs); 0 when `audit` does not start that way.
 */
function reusable(prev: KeptEncoding, audit: AuditEntry[]): number {
  const from = audit.length ? prev.audit.indexOf(audit[0]) : -1;
  if (from < 0) return 0;
  const n = prev.audit.length - from;
  if (n > audit.length) return 0;
  for (let i = 0; i < n; i++) if (prev.audit[from + i] !== audit[i]) return 0;
  return n;
}
