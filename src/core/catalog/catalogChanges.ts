/**
 * The catalog's statuses per name, and its change feed for the skill index: after a registry change only the
 * names it touched are settled again, so a sync reads the skills that changed instead of every entry.
 */
import type { RegistryChanges } from '../registry/changeLog';
import type { SkillRecord, SkillSourceChanges, SkillSourceCursor } from '../registry/registryTypes';
import { sourceRank } from '../sources';
import { compareStrings } from '../text/compareStrings';
import type { CatalogEntry } from './catalogTypes';

/** The catalog as the runtime's skill source (see `SkillCatalog.skillSource`). */
export interface CatalogSkillSource {
  resolve(nameOrId: string): SkillRecord | undefined;
  list(): readonly SkillRecord[];
  overlayDir(skillId: string): string | undefined;
  changes(since?: SkillSourceCursor): SkillSourceChanges | undefined;
}

/** What the feed needs of the catalog. */
interface CatalogView {
  readonly stateToken: object;
  readonly registry: {
    snapshot(): { generation: number };
    changedSince(since: number): RegistryChanges | undefined;
    recordsNamed(name: string): readonly SkillRecord[];
  };
  entriesNamed(name: string): CatalogEntry[];
}

/**
 * Per name, the non-broken entries of the best scope are `ok` (or `ambiguous` when several tie), the rest
 * `shadowed`; broken ones stay `broken`. `group` holds the visible entries of one name.
 */
export function settleStatuses(group: CatalogEntry[]): void {
  const usable = group.filter((e) => e.record.status !== 'broken').sort((a, b) => sourceRank(a.record.scope) - sourceRank(b.record.scope) || compareStrings(a.id, b.id));
  const top = usable.filter((e) => sourceRank(e.record.scope) === sourceRank(usable[0]?.record.scope));
  for (const e of usable) e.status = top.includes(e) ? (top.length > 1 ? 'ambiguous' : 'ok') : 'shadowed';
  for (const e of group) if (e.record.status === 'broken') e.status = 'broken';
}

/** An entry as the runtime's record: its effective SKILL.md, description, version and catalog status. */
export function catalogRecord(e: CatalogEntry): SkillRecord {
  return { ...e.record, location: e.location, properties: e.properties, description: e.description, digest: e.versionRef, status: e.status };
}

/**
 * The feed of `skillSource().list()`: a cursor is the registry's generation under one catalog state (hidden list,
 * overlays); a cursor from another state, or one the registry no longer remembers, gets undefined (compare all).
 */
export function catalogChanges(catalog: CatalogView, since: SkillSourceCursor | undefined): SkillSourceChanges | undefined {
  const cursor: SkillSourceCursor = { owner: catalog.stateToken, generation: catalog.registry.snapshot().generation };
  if (!since) return { cursor, put: [], removed: [] };
  if (since.owner !== catalog.stateToken) return undefined;
  const changed = catalog.registry.changedSince(since.generation);
  if (!changed) return undefined;
  // A change to one skill can change the status of every skill of its name (before or after): those are settled
  // again, and whatever of them is not `ok` now has left the list.
  const put: SkillRecord[] = [];
  const listed = new Set<string>();
  for (const name of changed.names) {
    for (const e of catalog.entriesNamed(name)) {
      if (e.status !== 'ok' || listed.has(e.id)) continue;
      listed.add(e.id);
      put.push(catalogRecord(e));
    }
  }
  const removed = new Set<string>();
  for (const id of changed.ids) if (!listed.has(id)) removed.add(id);
  for (const name of changed.names) for (const r of catalog.registry.recordsNamed(name)) if (!listed.has(r.id)) removed.add(r.id);
  return { cursor, put, removed: [...removed] };
}
