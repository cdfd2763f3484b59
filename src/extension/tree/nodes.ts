// Reading the tree nodes commands receive (from an inline action, a context menu, or automation).
import type { AvailableNode } from './availableTree';
import type { SessionNode } from './sessionsTree';

export type AnyNode = AvailableNode | SessionNode;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

export function isSkillNode(v: unknown): v is Extract<AvailableNode, { kind: 'skill' }> {
  return isObject(v) && v.kind === 'skill' && isObject(v.record);
}

export function isSessionNode(v: unknown): v is Extract<SessionNode, { kind: 'session' }> {
  return isObject(v) && v.kind === 'session' && isObject(v.session);
}

export function isActiveNode(v: unknown): v is Extract<SessionNode, { kind: 'active' }> {
  return isObject(v) && v.kind === 'active' && isObject(v.skill) && typeof v.sessionId === 'string';
}

/** The SKILL.md a node stands for, if any. */
export function skillFileOf(v: unknown): string | undefined {
  if (isSkillNode(v)) return v.record.location;
  if (isActiveNode(v)) return v.skill.location;
  return undefined;
}
