import { createHash } from 'node:crypto';
import type { AuditEntry } from '../audit/auditLog';
import type { CatalogToolId } from '../tools/toolNames';
import type { CatalogOutcome } from './toolResult';

/** Where the catalog tools append their audit lines: the runtime's `AuditLog`, so one file holds every action. */
export interface AuditSink {
  append(entry: AuditEntry): void;
}

/** Audit settings of one runSkill / updateSkill call. */
export interface CatalogAuditOptions {
  audit?: AuditSink;
  /** The chat session the call came from, when there is one. */
  sessionId?: string;
}

/** Strings longer than this are logged as their length and digest (the revision store keeps written content). */
const MAX_LOGGED_STRING = 2048;

/** The tool input as logged: long strings (file content, diffs, bodies) shortened to their size and sha256. */
function loggedArguments(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') {
    if (value.length <= MAX_LOGGED_STRING) return value;
    const digest = createHash('sha256').update(value).digest('hex');
    return `${value.slice(0, 200)}… [${value.length} characters, sha256:${digest}]`;
  }
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => loggedArguments(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, loggedArguments(v, depth + 1)]));
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v ? v : undefined;
}

/**
 * The audit line of one runSkill / updateSkill call: `action` is `<tool>.<action>` (e.g. `updateSkill.patch`),
 * `skill` the canonical id it acted on (or the name it asked for), `digest` the file's version after the call,
 * `outcome` `ok` or `error:<code>`, and `details` what a reviewer needs (file, written, dry run, refs, revision).
 */
export function catalogAuditEntry(tool: CatalogToolId, rawInput: unknown, result: CatalogOutcome<object>, sessionId: string | undefined, started: Date, durationMs: number): AuditEntry {
  const input = (rawInput !== null && typeof rawInput === 'object' ? rawInput : {}) as Record<string, unknown>;
  const r = result as Record<string, unknown>;
  const resultSkill = r.skill as Record<string, unknown> | undefined;
  const asked = str(input.skill) ?? (input.action === 'create' && str(input.scope) && str(input.name) ? `${str(input.scope)}:${str(input.name)}` : undefined);
  const skill = result.ok ? (str(r.skillId) ?? str(resultSkill?.id) ?? asked) : asked;
  const digest = result.ok ? (str(r.versionRef) ?? str(resultSkill?.versionRef)) : undefined;
  const revision = r.revision as { seq?: unknown } | undefined;
  const revisions = r.revisions as { seq?: unknown }[] | undefined;
  const details: Record<string, unknown> = result.ok
    ? Object.fromEntries(
        Object.entries({
          file: r.file,
          written: r.written,
          dryRun: r.dryRun,
          target: r.target,
          previousRef: r.previousRef,
          revision: revision?.seq ?? (revisions?.length ? revisions.map((x) => x.seq) : undefined),
          change: r.change,
          archiveId: r.archiveId,
          status: r.status,
          loaded: r.loaded,
        }).filter(([, v]) => v !== undefined),
      )
    : { message: result.error.message.slice(0, 500) };
  return {
    time: started.toISOString(),
    session: sessionId ?? '',
    ...(skill ? { skill } : {}),
    ...(digest ? { digest } : {}),
    action: `${tool}.${str(input.action) ?? '?'}`,
    arguments: loggedArguments(rawInput),
    outcome: result.ok ? 'ok' : `error:${result.error.code}`,
    duration_ms: Math.round(durationMs * 1000) / 1000,
    ...(Object.keys(details).length ? { details } : {}),
  };
}

/** Runs a catalog tool call and appends its audit line (also when it fails, or throws a bug). */
export async function audited<T extends object>(tool: CatalogToolId, rawInput: unknown, opts: CatalogAuditOptions, body: () => Promise<CatalogOutcome<T>>): Promise<CatalogOutcome<T>> {
  const { audit } = opts;
  if (!audit) return body();
  const started = new Date();
  const t0 = performance.now();
  let result: CatalogOutcome<T>;
  try {
    result = await body();
  } catch (e) {
    audit.append(catalogAuditEntry(tool, rawInput, { ok: false, error: { code: 'internal', message: e instanceof Error ? e.message : String(e), hint: 'This is a bug of the extension: tell the user.' } }, opts.sessionId, started, performance.now() - t0));
    throw e;
  }
  audit.append(catalogAuditEntry(tool, rawInput, result, opts.sessionId, started, performance.now() - t0));
  return result;
}
