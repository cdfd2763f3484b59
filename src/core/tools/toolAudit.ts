// The one builder of tool audit lines, for every tool and every caller (a chat's call, a user's own run, the
// CLI). The families differ only in the facts they hand over (which action, which skills, which details).
import { createHash } from 'node:crypto';
import type { AuditEntry } from '../audit/auditLog';
import type { TouchedSkill } from './toolResult';

/** One finished call, as the audit log needs it. */
export interface AuditedToolCall {
  /** When the call started. */
  started: Date;
  /** How long it took, in milliseconds. */
  durationMs: number;
  /** The session it acted in, or the name of a session-free caller (e.g. `user`, `cli`); '' when none. */
  session: string;
  /** What was done: the runtime's tool id (`load`, `run_script`) or `<tool>.<action>` (`updateSkill.patch`). */
  action: string;
  /** The input as the caller gave it; long strings are logged as their length and digest. */
  input: unknown;
  /** `ok`, `error:<code>`, `cancelled` or `timed_out`. */
  outcome: string;
  /** The skills the call acted on (or was aimed at): one line each; none gives one line without a skill. */
  skills: TouchedSkill[];
  /** What a reviewer needs beyond the outcome (exit code of a run, file and revision of a write). */
  details?: Record<string, unknown>;
}

/** Strings longer than this are logged as their length and digest (the revision store keeps written content). */
const MAX_LOGGED_STRING = 2048;
/** Nesting logged in full; deeper values are logged as they are (tool inputs are shallow). */
const MAX_LOGGED_DEPTH = 6;

/** The input as logged: long strings (file content, diffs, bodies) shortened to their size and sha256. */
export function loggedArguments(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') {
    if (value.length <= MAX_LOGGED_STRING) return value;
    const digest = createHash('sha256').update(value).digest('hex');
    return `${value.slice(0, 200)}… [${value.length} characters, sha256:${digest}]`;
  }
  if (depth > MAX_LOGGED_DEPTH || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => loggedArguments(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, loggedArguments(v, depth + 1)]));
}

/** The audit line(s) of one call. */
export function toolAuditEntries(c: AuditedToolCall): AuditEntry[] {
  const base: AuditEntry = {
    time: c.started.toISOString(),
    session: c.session,
    action: c.action,
    arguments: loggedArguments(c.input),
    outcome: c.outcome,
    duration_ms: Math.round(c.durationMs * 1000) / 1000,
    ...(c.details && Object.keys(c.details).length ? { details: c.details } : {}),
  };
  if (!c.skills.length) return [base];
  return c.skills.map((s) => ({ ...base, skill: s.name, ...(s.digest ? { digest: s.digest } : {}) }));
}
