import { sourceOf } from '../sources';
import type { SkillRoot } from './types';

/**
 * The canonical id of a skill: its source kind's id prefix, the root's source when the kind's ids carry
 * one, and the name: `workspace:<name>`, `user:<name>`, `plugin:<extension id>:<name>`, `pack:<pack>:<name>`.
 * The registry appends `@<skill folder>` when two records would share an id.
 */
export function baseSkillId(root: SkillRoot, name: string): string {
  const kind = sourceOf(root.scope);
  return kind.idHasSource ? `${kind.idPrefix}:${root.source ?? 'unknown'}:${name}` : `${kind.idPrefix}:${name}`;
}
