// The session state store several replicas of `agent-skills mcp` share: Redis (`--state-store redis://host:port/db`).
// Each session is one string value under `agent-skills:session:<key>` with the store's time to live. Every call
// is timed out, every read is bounded (GETRANGE never brings more than the bound plus one byte), and every failure
// is a StateStoreError naming the store (its URL without a password) and what to do.
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { decodeStored, encodeStored, GENERATION_HEAD_BYTES, MAX_STATE_BYTES, SIGNING_KEY_BYTES, signingKeyOf, STATE_TTL_MS, StateStoreError, type SessionStateStore } from './sessionStateStore';

/**
 * How long one Redis call may take before it fails (ms): a deadline for a Redis that is gone or hung, not a measure of
 * a healthy one (which answers in a millisecond). The clock runs in this process, so a replica whose event loop is
 * busy (50 clients at once on a loaded 2-core machine) sees an answer late that Redis gave at once; 2 s could turn
 * such answers into failed calls.
 */
export const REDIS_TIMEOUT_MS = 10_000;
const PREFIX = 'agent-skills:session:';
/** The replicas' shared signing key (hex), set once by the first that asks (SET NX), never expiring. */
const SIGNING_KEY = 'agent-skills:signing-key';

/**
 * Compare-and-set in one step on the server (a script runs alone): the stored generation is read from the value's
 * first bytes (GENERATION_HEAD: `{"v":1,"g":<n>,`, 0 when there is no value or none in it); the new value is set
 * only when it is ARGV[1]. Returns 1 when set, 0 when another writer saved first.
 */
const CAS_SCRIPT = `
local head = redis.call('GETRANGE', KEYS[1], 0, tonumber(ARGV[4]) - 1)
local g = 0
if head ~= '' then g = tonumber(string.match(head, '^{"v":1,"g":(%d+),')) or 0 end
if g ~= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1
`;

type CasRedis = Redis & { casSession(key: string, expected: string, text: string, ttlMs: string, headBytes: string): Promise<number> };

/** Options of the Redis store (tests shorten the timeout). */
export interface RedisStoreOptions {
  timeoutMs?: number;
  ttlMs?: number;
}

/** Checks a `--state-store` Redis URL; returns it without its password for messages. Throws naming the fix. */
export function redisUrlLabel(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new StateStoreError(`--state-store: '${url.slice(0, 200)}' is not a URL; give redis://host:port/db (e.g. redis://127.0.0.1:6379/0).`);
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw new StateStoreError(`--state-store: '${u.protocol}' is not a store; give redis://host:port/db or rediss:// for TLS.`);
  if (!u.hostname) throw new StateStoreError(`--state-store: '${url.slice(0, 200)}' names no host; give redis://host:port/db.`);
  const db = u.pathname.replace(/^\//, '');
  if (db && !/^\d{1,2}$/.test(db)) throw new StateStoreError(`--state-store: the database '${db.slice(0, 40)}' in '${u.host}' is not a number (0-15); give redis://host:port/0.`);
  return `${u.protocol}//${u.host}/${db || '0'}`;
}

/** A store in Redis at `url`. Connects lazily; the first call that cannot reach it fails with the store's name. */
export function redisStateStore(url: string, o: RedisStoreOptions = {}): SessionStateStore {
  const label = redisUrlLabel(url);
  const name = `Redis state store ${label}`;
  const timeoutMs = o.timeoutMs ?? REDIS_TIMEOUT_MS;
  const ttlMs = o.ttlMs ?? STATE_TTL_MS;
  const redis = new Redis(url, {
    lazyConnect: true,
    commandTimeout: timeoutMs,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 1,
    // Reconnect after a restart of Redis, quickly at first, at most every 2 s.
    retryStrategy: (times) => Math.min(100 * times, 2000),
  });
  // ioredis reports connection errors as events too; each call's own error is what the caller sees.
  redis.on('error', () => undefined);
  // Sent by its digest (EVALSHA), the script's text only when this Redis has not seen it.
  redis.defineCommand('casSession', { numberOfKeys: 1, lua: CAS_SCRIPT });
  const cas = redis as CasRedis;
  let signing: Buffer | undefined;
  const call = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (e) {
      const m = (e as Error).message ?? String(e);
      const timedOut = /timed out|timeout/i.test(m);
      throw new StateStoreError(
        `${name}: ${what} ${timedOut ? `did not answer within ${timeoutMs} ms` : `failed (${m.slice(0, 200)})`}; check that Redis runs at ${label} and this server can reach it, or start the server without --state-store to keep sessions in its state folder.`,
      );
    }
  };
  return {
    name,
    async load(key) {
      // One byte more than the bound tells a value over it without reading the rest.
      const bytes = await call('GETRANGE', () => redis.getrangeBuffer(PREFIX + key, 0, MAX_STATE_BYTES));
      return bytes.length ? decodeStored(name, key, bytes) : undefined;
    },
    async save(key, session, expected) {
      const text = encodeStored(name, session, expected + 1);
      const set = await call('the compare-and-set script', () => cas.casSession(PREFIX + key, String(expected), text, String(ttlMs), String(GENERATION_HEAD_BYTES)));
      return set === 1;
    },
    async remove(key) {
      await call('DEL', () => redis.del(PREFIX + key));
    },
    async claimOnce(key, ttlMs) {
      if (!/^[0-9a-f]{64}$/.test(key)) throw new StateStoreError(`${name}: '${key.slice(0, 80)}' is not a key to claim (64 hex digits).`);
      return (await call('SET NX of a used key', () => redis.set(`agent-skills:used:${key}`, '1', 'PX', Math.max(1, Math.ceil(ttlMs)), 'NX'))) === 'OK';
    },
    async signingKey() {
      if (signing) return signing;
      await call('SET NX of the signing key', () => redis.set(SIGNING_KEY, randomBytes(SIGNING_KEY_BYTES).toString('hex'), 'NX'));
      const hex = await call('GETRANGE of the signing key', () => redis.getrange(SIGNING_KEY, 0, 1023));
      signing = signingKeyOf(`${name}: key ${SIGNING_KEY}`, hex);
      return signing;
    },
    async close() {
      redis.disconnect();
    },
  };
}
