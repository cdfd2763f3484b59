import type { SkillRecord } from '../registry/registryTypes';
import { ToolError } from '../tools/toolError';
import type { SessionStore } from './sessionStore';
import type { SkillContentCache } from './skillContent';
import type { ActiveSkill, ArtifactReader, ScriptExecutor, SessionState, SkillSource } from './runtimeTypes';

/** Limits and switches of the tools. */
export interface ToolLimits {
  /** Most skills loaded at once (default 5). */
  maxLoadedSkills: number;
  /** Most bytes one `read` returns (default 256 KiB). */
  maxReadBytes: number;
}

/** What every tool operates against; built once by the runtime. */
export interface ToolContext {
  sessions: SessionStore;
  source: SkillSource;
  content: SkillContentCache;
  executor?: ScriptExecutor;
  artifacts?: ArtifactReader;
  /** Whose artifacts a call sees (RunRequest.artifactScope): its session's own when sessions keep theirs apart. */
  artifactScope(call: ToolCall): string | undefined;
  limits: ToolLimits;
  now: () => Date;
}

/** Per-invocation facts the host passes with a tool call. */
export interface ToolCall {
  sessionId: string;
  /** The model's tool call id; lets the composer put loaded content into this call's result. */
  callId?: string;
  signal?: AbortSignal;
}

/** The session, which the runtime has created before any tool runs. */
export function sessionOf(ctx: ToolContext, call: ToolCall): SessionState {
  const s = ctx.sessions.get(call.sessionId);
  if (!s) {
    throw new ToolError('unknown_session', `No session with id '${call.sessionId}'.`, 'The host must create the session before invoking skill tools.');
  }
  return s;
}

/**
 * The loaded skill a tool acts on: the named one (which must be loaded) or the most recently loaded.
 * `tool` names the caller in errors.
 */
export function pickLoaded(session: Pick<SessionState, 'active_skills'>, skill: string | undefined, tool: string): ActiveSkill {
  if (session.active_skills.length === 0) {
    throw new ToolError(
      'no_skill_loaded',
      `${tool} needs a loaded skill, and none is loaded in this session.`,
      `Call load with the skill's name from <available_skills> first, then call ${tool} again.`,
    );
  }
  if (skill === undefined) return session.active_skills[session.active_skills.length - 1];
  const found = session.active_skills.find((a) => a.name === skill || a.id === skill);
  if (!found) {
    throw new ToolError(
      'not_loaded',
      `Skill '${skill}' is not loaded (loaded: ${session.active_skills.map((a) => a.name).join(', ')}).`,
      `Call load with names ["${skill}"] and mode "add" first, or pass one of the loaded skills.`,
    );
  }
  return found;
}

/** Resolves a name through the source and insists the skill is usable. */
export function resolveUsable(ctx: ToolContext, name: string): SkillRecord {
  let rec: SkillRecord | undefined;
  try {
    rec = ctx.source.resolve(name);
  } catch (e) {
    // A registry throws typed errors (not-found with suggestions, ambiguous, broken) that already say what is wrong.
    const err = e as Error & { code?: string; suggestions?: string[] };
    if (err.code === 'not-found') {
      throw new ToolError('unknown_skill', err.message, 'Use a name exactly as listed in <available_skills>.', { suggestions: err.suggestions ?? [] });
    }
    throw new ToolError(
      'skill_unusable',
      err.message,
      err.code === 'ambiguous' ? 'Load it by one of the ids named in the message, or pick another skill.' : 'Pick another skill, or ask the user to fix the SKILL.md.',
    );
  }
  if (!rec) {
    const known = ctx.source.list().map((r) => r.name);
    const near = suggest(name, known);
    throw new ToolError(
      'unknown_skill',
      `No skill named '${name}'.${near.length ? ` Did you mean: ${near.join(', ')}?` : ''}`,
      'Use a name exactly as listed in <available_skills>.',
      { suggestions: near },
    );
  }
  if (rec.status !== 'ok') {
    const errors = rec.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message);
    throw new ToolError(
      'skill_unusable',
      `Skill '${name}' (${rec.location}) cannot be loaded: it is ${rec.status}${errors.length ? `: ${errors.slice(0, 3).join(' ')}` : ''}.`,
      rec.status === 'shadowed' && rec.shadowedBy ? `Load '${rec.shadowedBy}' instead.` : 'Pick another skill, or ask the user to fix the SKILL.md.',
    );
  }
  return rec;
}

/** Up to five known names close to `name`: shared substring or small edit distance. */
export function suggest(name: string, known: readonly string[]): string[] {
  const n = name.toLowerCase();
  const scored = known
    .map((k) => ({ k, d: k.includes(n) || n.includes(k) ? 0 : editDistance(n, k.toLowerCase()) }))
    .filter((x) => x.d <= Math.max(2, Math.floor(n.length / 3)))
    .sort((a, b) => a.d - b.d || a.k.localeCompare(b.k));
  return [...new Set(scored.map((x) => x.k))].slice(0, 5);
}

function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length];
}
