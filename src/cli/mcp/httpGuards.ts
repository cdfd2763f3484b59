// The checks an HTTP request passes before the MCP transport sees it: Host and Origin (DNS rebinding: a web page
// on evil.example that re-points its name to 127.0.0.1 still sends Host: evil.example and Origin: its own),
// the bearer token (constant-time), and a bounded body read.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

/** What the guards allow. */
export interface GuardPolicy {
  /** Host names (no port) a request may name; empty: any (a non-loopback bind behind a proxy, token required). */
  hosts: Set<string>;
  /** Exact origins allowed besides loopback ones (loopback origins only on a loopback bind). */
  origins: Set<string>;
  loopbackBind: boolean;
  token?: string;
  maxBodyBytes: number;
}

/** A refused request: HTTP status and the text sent back. */
export interface Refusal {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1']);

/** True for 127.0.0.0/8, ::1 and `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return LOOPBACK_NAMES.has(h) || (isIP(h) === 4 && h.startsWith('127.'));
}

/** The host name of a Host header without its port (IPv6 brackets removed), lower-cased. */
export function hostName(header: string): string {
  const h = header.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']'));
  const colon = h.lastIndexOf(':');
  return colon >= 0 ? h.slice(0, colon) : h;
}

/** The policy for a bind address and the user's extra hosts/origins. */
export function guardPolicy(bindHost: string, o: { token?: string; allowHosts: string[]; allowOrigins: string[]; maxBodyBytes: number }): GuardPolicy {
  const loopbackBind = isLoopbackHost(bindHost);
  const hosts = new Set(o.allowHosts.map((h) => h.toLowerCase()));
  if (loopbackBind) for (const n of [...LOOPBACK_NAMES, bindHost.toLowerCase()]) hosts.add(n);
  else if (hosts.size && bindHost !== '0.0.0.0' && bindHost !== '::') hosts.add(bindHost.toLowerCase());
  return { hosts, origins: new Set(o.allowOrigins.map((x) => x.replace(/\/$/, '').toLowerCase())), loopbackBind, token: o.token, maxBodyBytes: o.maxBodyBytes };
}

function sameSecret(given: string, expected: string): boolean {
  // Hashing first makes the comparison constant-time whatever the lengths.
  return timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());
}

/** Checks Host, Origin and the token; undefined when the request may go on. */
export function checkRequest(req: IncomingMessage, p: GuardPolicy): Refusal | undefined {
  const host = req.headers.host;
  if (!host) return { status: 400, message: 'The request has no Host header.' };
  if (p.hosts.size && !p.hosts.has(hostName(host))) {
    return { status: 403, message: `Host '${hostName(host)}' is not served here (DNS rebinding protection). Use one of: ${[...p.hosts].join(', ')}, or start the server with --allow-host ${hostName(host)}.` };
  }
  const origin = req.headers.origin;
  if (origin !== undefined) {
    let ok = p.origins.has(origin.replace(/\/$/, '').toLowerCase());
    if (!ok && p.loopbackBind) {
      try {
        const u = new URL(origin);
        ok = (u.protocol === 'http:' || u.protocol === 'https:') && isLoopbackHost(u.hostname);
      } catch {
        ok = false;
      }
    }
    if (!ok) return { status: 403, message: `Origin '${origin}' is not allowed (DNS rebinding protection). Start the server with --allow-origin ${origin} if this web page should reach it.` };
  }
  if (p.token !== undefined) {
    const auth = req.headers.authorization ?? '';
    const m = /^Bearer\s+(.+)$/i.exec(auth);
    if (!m || !sameSecret(m[1].trim(), p.token)) {
      return { status: 401, message: 'Missing or wrong bearer token: send the header "Authorization: Bearer <token>" with the token the server was started with.', headers: { 'www-authenticate': 'Bearer realm="agent-skills"' } };
    }
  }
  return undefined;
}

/**
 * The bytes of request bodies the server holds at once, over all connections: each body is bounded by itself, but
 * clients that open many connections and send their bodies slowly would otherwise make the server hold them all
 * (2,000 half-sent bodies of 0.5 MB grew it to 0.8 GB). `maxBytes` is {@link BODY_BUDGET_BODIES} largest bodies.
 */
export interface BodyBudget {
  held: number;
  readonly maxBytes: number;
}

/** How many largest bodies the server holds at once (the default --max-body-kb of 1 MiB: 64 MiB). */
export const BODY_BUDGET_BODIES = 64;

/** A budget for bodies of at most `maxBodyBytes` each. */
export function bodyBudget(maxBodyBytes: number): BodyBudget {
  return { held: 0, maxBytes: maxBodyBytes * BODY_BUDGET_BODIES };
}

/**
 * Reads the body up to `max` bytes; past that it stops reading and answers 413 (the caller closes the connection).
 * Every byte held counts against `budget` until the read ends; a chunk that would pass it stops the read with 503
 * and Retry-After (the caller closes that connection too), so the server never holds more than the budget.
 */
export function readBoundedBody(req: IncomingMessage, max: number, budget: BodyBudget = bodyBudget(max)): Promise<Buffer | Refusal> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) return Promise.resolve({ status: 413, message: `The request body is ${declared} bytes; this server takes at most ${max} (--max-body-kb).` });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (v: Buffer | Refusal | Error) => {
      if (done) return;
      done = true;
      budget.held -= size;
      req.off('data', onData);
      req.off('end', onEnd);
      if (v instanceof Error) reject(v);
      else resolve(v);
    };
    const onData = (c: Buffer) => {
      if (size + c.length > max) {
        req.pause();
        finish({ status: 413, message: `The request body passed ${max} bytes; this server takes at most ${max} (--max-body-kb).` });
        return;
      }
      if (budget.held + c.length > budget.maxBytes) {
        req.pause();
        finish({ status: 503, message: `This server already holds ${budget.held} bytes of request bodies still arriving (at most ${budget.maxBytes}: ${BODY_BUDGET_BODIES} times --max-body-kb); send the body again shortly, and all at once.`, headers: { 'retry-after': '5' } });
        return;
      }
      size += c.length;
      budget.held += c.length;
      chunks.push(c);
    };
    const onEnd = () => finish(Buffer.concat(chunks));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', (e: Error) => finish(e));
    // A client that goes away mid-body (no 'end', and no 'error' on some paths) gives its bytes back.
    req.on('close', () => finish({ status: 400, message: 'The client closed the connection before its request body ended.' }));
  });
}
