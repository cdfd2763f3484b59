import { sourceOf, type SourceKind } from '../sources';
import type { SkillRoot } from './registryTypes';

/** The id prefix of each root seen, with the kind and source it was made from (a root or kind changed since gets a new one). */
const prefixes = new WeakMap<SkillRoot, { kind: SourceKind; source: string | undefined; prefix: string }>();

/** `<kind id prefix>:` or `<kind id prefix>:<source>:`, made once per root: a scan asks it for every skill. */
function idPrefix(root: SkillRoot): string {
  const kind = sourceOf(root.scope);
  const known = prefixes.get(root);
  if (known && known.kind === kind && known.source === root.source) return known.prefix;
  const prefix = kind.idHasSource ? `${kind.idPrefix}:${root.source ?? 'unknown'}:` : `${kind.idPrefix}:`;
  prefixes.set(root, { kind, source: root.source, prefix });
  return prefix;
}

/**
 * The canonical id of a skill: its source kind's id prefix, the root's source when the kind's ids carry
 * one, and the name: `workspace:<name>`, `user:<name>`, `plugin:<extension id>:<name>`, `pack:<pack>:<name>`.
 * The registry appends `@<skill folder>` when two records would share an id.
 */
export function baseSkillId(root: SkillRoot, name: string): string {
  return idPrefix(root) + name;
}
