import type { AuditEntry } from '../audit/auditLog';
import { toolAuditEntries } from '../tools/toolAudit';
import type { CatalogToolId } from '../tools/toolNames';
import type { ToolResult } from '../tools/toolResult';

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

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v ? v : undefined;
}

/**
 * The audit line of one runSkill / updateSkill call: `action` is `<tool>.<action>` (e.g. `updateSkill.patch`),
 * `skill` the canonical id it acted on (or the name it asked for), `digest` the file's version after the call,
 * `outcome` `ok` or `error:<code>`, and `details` what a reviewer needs (file, written, dry run, refs, revision).
 */
export function catalogAuditEntry(tool: CatalogToolId, rawInput: unknown, result: ToolResult<object>, sessionId: string | undefined, started: Date, durationMs: number): AuditEntry {
  const input = (rawInput !== null && typeof rawInput === 'object' ? rawInput : {}) as Record<string, unknown>;
  const r = (result.ok ? result.result : {}) as Record<string, unknown>;
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
  const [entry] = toolAuditEntries({
    started,
    durationMs,
    session: sessionId ?? '',
    action: `${tool}.${str(input.action) ?? '?'}`,
    input: rawInput,
    outcome: result.ok ? 'ok' : `error:${result.error.code}`,
    skills: skill ? [{ name: skill, digest }] : [],
    details,
  });
  return entry;
}

/** Runs a catalog tool call and appends its audit line (also when it fails, or throws a bug). */
export async function audited<T extends object>(tool: CatalogToolId, rawInput: unknown, opts: CatalogAuditOptions, body: () => Promise<ToolResult<T>>): Promise<ToolResult<T>> {
  const { audit } = opts;
  if (!audit) return body();
  const started = new Date();
  const t0 = performance.now();
  let result: ToolResult<T>;
  try {
    result = await body();
  } catch (e) {
    audit.append(catalogAuditEntry(tool, rawInput, { ok: false, tool, error: { code: 'internal', message: e instanceof Error ? e.message : String(e), hint: 'This is a bug of the extension: tell the user.' } }, opts.sessionId, started, performance.now() - t0));
    throw e;
  }
  audit.append(catalogAuditEntry(tool, rawInput, result, opts.sessionId, started, performance.now() - t0));
  return result;
}
