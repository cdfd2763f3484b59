import type { LoadedSkill } from './loadSkill';
import { baseSkillId, compareStrings, SCOPE_RANK } from './skillId';
import type { SkillRecord } from './types';

/**
 * Turns loaded skills into records with ids and statuses. Per name, among the skills that are not
 * broken: the one of the highest-precedence scope is `ok` and `shadows` the rest; two or more in that
 * scope are all `ambiguous` (neither wins) and the lower ones are `shadowed` by the first of them.
 * Broken skills take no part in precedence: they neither win nor hide a working skill.
 * Records come back sorted by name, then precedence, then id (byte order, locale-independent).
 */
export function applyPrecedence(loaded: readonly LoadedSkill[]): SkillRecord[] {
  const baseIds = loaded.map((s) => baseSkillId(s.root, s.name));
  const counts = new Map<string, number>();
  for (const id of baseIds) counts.set(id, (counts.get(id) ?? 0) + 1);
  const records: SkillRecord[] = loaded.map((s, i) => ({
    id: counts.get(baseIds[i])! > 1 ? `${baseIds[i]}@${s.rootDir}` : baseIds[i],
    name: s.name,
    description: s.description,
    location: s.location,
    rootDir: s.rootDir,
    scope: s.root.scope,
    root: s.root,
    properties: s.properties,
    digest: s.digest,
    diagnostics: s.diagnostics,
    status: s.broken ? 'broken' : 'ok',
    shadows: [],
  }));
  records.sort(compareRecords);

  let i = 0;
  while (i < records.length) {
    let j = i;
    while (j < records.length && records[j].name === records[i].name) j++;
    if (j - i > 1) settleName(records.slice(i, j));
    i = j;
  }
  return records;
}

/** Decides the statuses within one name group (already in precedence order). */
function settleName(group: SkillRecord[]): void {
  const usable = group.filter((r) => r.status !== 'broken');
  if (usable.length < 2) return;
  const topRank = SCOPE_RANK[usable[0].scope];
  const top = usable.filter((r) => SCOPE_RANK[r.scope] === topRank);
  const rest = usable.filter((r) => SCOPE_RANK[r.scope] !== topRank);
  const winner = top[0];
  if (top.length > 1) {
    for (const r of top) {
      r.status = 'ambiguous';
      r.ambiguousWith = top.filter((o) => o !== r).map((o) => o.id);
    }
  }
  winner.shadows = rest.map((r) => r.id);
  for (const r of rest) {
    r.status = 'shadowed';
    r.shadowedBy = winner.id;
  }
}

export function compareRecords(a: SkillRecord, b: SkillRecord): number {
  return compareStrings(a.name, b.name) || SCOPE_RANK[a.scope] - SCOPE_RANK[b.scope] || compareStrings(a.id, b.id);
}
