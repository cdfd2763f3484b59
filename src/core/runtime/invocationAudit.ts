// The runtime tools' facts for the one audit builder (src/core/tools/toolAudit.ts), the same for a chat
// session's call and a user's own run.
import type { AuditLog } from '../audit/auditLog';
import { toolAuditEntries } from '../tools/toolAudit';
import type { ToolResult, TouchedSkill } from '../tools/toolResult';
import type { SkillToolName } from './runtimeToolInputs';
import type { SessionState } from './runtimeTypes';

/** One finished call, as the audit log needs it. */
export interface AuditedCall {
  /** When the call started. */
  started: Date;
  /** How long it took, in milliseconds. */
  durationMs: number;
  /** The session it acted in, or the name of the session-free caller (e.g. `user`). */
  session: string;
  tool: SkillToolName | undefined;
  /** The name the caller used, for an unknown tool. */
  toolName: string;
  input: unknown;
  invocation: ToolResult;
  /** The skills the call touched (empty when it was refused). */
  touched: TouchedSkill[];
  /** The session's state, to name the skills a refused call was aimed at. */
  state?: SessionState;
}

/** Appends the call's line(s): one per skill it touched (or was aimed at), or one without a skill. */
export function auditCall(audit: AuditLog, c: AuditedCall): void {
  const { invocation, tool } = c;
  const entries = toolAuditEntries({
    started: c.started,
    durationMs: c.durationMs,
    session: c.session,
    action: tool ?? c.toolName,
    input: c.input,
    outcome: !invocation.ok ? `error:${invocation.error.code}` : tool === 'run_script' ? runOutcome(invocation.result) : 'ok',
    skills: c.touched.length ? c.touched : attemptedSkills(tool, c.input, c.state),
    ...(invocation.ok && tool === 'run_script' ? { details: runDetails(invocation.result) } : {}),
  });
  for (const e of entries) audit.append(e);
}

function runDetails(result: unknown): Record<string, unknown> {
  const r = result as { exit_code?: unknown; timed_out?: unknown; cancelled?: unknown; execution_mode?: unknown };
  return { exit_code: r.exit_code, timed_out: r.timed_out, cancelled: r.cancelled, execution_mode: r.execution_mode };
}

/**
 * A run the caller stopped (its AbortSignal fired, e.g. the chat request was cancelled) is audited as `cancelled`,
 * one killed at its timeout as `timed_out`, not as ok. A run that exited (whatever its code) is `ok`; the code is in details.
 */
function runOutcome(result: unknown): 'ok' | 'cancelled' | 'timed_out' {
  const r = result as { cancelled?: unknown; timed_out?: unknown };
  return r.cancelled === true ? 'cancelled' : r.timed_out === true ? 'timed_out' : 'ok';
}

/** The skills a refused call was aimed at, so its audit line names them. */
function attemptedSkills(tool: SkillToolName | undefined, input: unknown, session: SessionState | undefined): TouchedSkill[] {
  const args = (input ?? {}) as { skill?: unknown; names?: unknown };
  const find = (n: string) => session?.active_skills.find((a) => a.name === n);
  if (tool === 'load' || tool === 'unload') {
    return Array.isArray(args.names) ? args.names.filter((n): n is string => typeof n === 'string').map((n) => ({ name: n, digest: find(n)?.digest })) : [];
  }
  if (typeof args.skill === 'string') return [{ name: args.skill, digest: find(args.skill)?.digest }];
  const last = session?.active_skills[session.active_skills.length - 1];
  return last ? [{ name: last.name, digest: last.digest }] : [];
}
