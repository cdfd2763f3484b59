import type { SkillRoot, SkillScope } from './types';

/** Precedence rank of a scope: lower wins (project > user > plugin > pack, seed 002). */
export const SCOPE_RANK: Record<SkillScope, number> = { project: 0, user: 1, plugin: 2, pack: 3 };

/**
 * The canonical id of a skill: `workspace:<name>`, `user:<name>`, `plugin:<source>:<name>`,
 * `pack:<source>:<name>`. The registry appends `@<skill folder>` when two records would share an id.
 */
export function baseSkillId(root: SkillRoot, name: string): string {
  switch (root.scope) {
    case 'project':
      return `workspace:${name}`;
    case 'user':
      return `user:${name}`;
    case 'plugin':
    case 'pack':
      return `${root.scope}:${root.source ?? 'unknown'}:${name}`;
  }
}
