// The `requestState` of a 2026-07-28 `input_required` result (basic/patterns/mrtr): the client echoes it back
// verbatim on its retry, so it is attacker-controlled input there. It decides whether a script runs, so it is
// integrity-protected (HMAC-SHA256 with the state store's signing key, which every replica over the store shares,
// so any replica verifies what another signed) and carries what the specification's server requirements list: a
// short expiry and the call it belongs to (a digest of the method, tool, arguments, session and principal). The
// caller is who holds the session's state handle (SEP-2567; a state minted for one handle is refused for another),
// under the bearer token it sent (its digest, {@link tokenPrincipal}: a state minted under one token is refused under
// another). The HTTP transport has one token for every client, so no finer principal exists to bind.
// Format: base64url(JSON payload) "." base64url(MAC).
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { invalidParams } from './requestError';

/** How long a confirmation question stays answerable (ms): a user may take minutes; after this the call asks again. */
export const REQUEST_STATE_TTL_MS = 15 * 60_000;
/** The longest requestState read at all (ours are about 150 characters). */
const MAX_STATE_CHARS = 1024;

/** JSON with object keys sorted at every depth, so one call's arguments digest the same however a client orders them. */
export function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** The digest of what a state is bound to: its parts joined (e.g. method, tool, session, arguments). */
export function bindingOf(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\n')).digest('base64url');
}

/** The principal of clients that send bearer token `token`: a digest, so the token itself is kept nowhere it is bound. */
export function tokenPrincipal(token: string): string {
  return createHash('sha256').update(`agent-skills bearer token\n${token}`).digest('base64url');
}

const mac = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest();

/** A signed state for the call `binding`, valid {@link REQUEST_STATE_TTL_MS} from `now`. */
export function signRequestState(key: Buffer, binding: string, now: number = Date.now()): string {
  const text = Buffer.from(JSON.stringify({ v: 1, b: binding, e: now + REQUEST_STATE_TTL_MS, n: randomBytes(9).toString('base64url') })).toString('base64url');
  return `${text}.${mac(key, text).toString('base64url')}`;
}

/**
 * Checks a client's `requestState` for the call `binding`: `valid`, or `expired` (signed here, for this call, but
 * too old: the caller asks again). Anything else (not a string, not signed by this deployment, changed, or for
 * another call) is refused with -32602 naming why; the caller runs nothing.
 */
export function verifyRequestState(key: Buffer, state: unknown, binding: string, now: number = Date.now()): { verdict: 'valid' | 'expired'; once: string } {
  const refuse = (why: string) => invalidParams(`requestState ${why}; nothing was run. Retry the call without requestState and inputResponses to be asked again.`);
  if (typeof state !== 'string' || state.length > MAX_STATE_CHARS) throw refuse(typeof state === 'string' ? `is over ${MAX_STATE_CHARS} characters, so not one this server gave` : `must be the string this server gave, not ${typeof state}`);
  const [text, sig, extra] = state.split('.');
  if (!text || !sig || extra !== undefined) throw refuse('is not one this server gave (malformed)');
  const expected = mac(key, text);
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refuse('failed verification: it was changed, or another server signed it');
  let payload: { v?: unknown; b?: unknown; e?: unknown; n?: unknown };
  try {
    payload = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as typeof payload;
  } catch {
    throw refuse('is not one this server gave (unreadable)');
  }
  if (payload.v !== 1 || typeof payload.b !== 'string' || typeof payload.e !== 'number' || typeof payload.n !== 'string') throw refuse('is not one this server gave (unknown fields)');
  if (payload.b !== binding) throw refuse('belongs to another call (a different tool, arguments or session)');
  // `once`: the key a state's one use is recorded under (its nonce's digest), so the same answer cannot run twice.
  return { verdict: payload.e < now ? 'expired' : 'valid', once: createHash('sha256').update(`request-state:${payload.n}`).digest('hex') };
}
