import type { SkillRecord } from '../registry/registryTypes';
import type { SkillSource, SkillSourceChanges, SkillSourceCursor } from './runtimeTypes';

/** The part of the skill registry the runtime uses. */
export interface RegistryLike {
  resolve(nameOrId: string): SkillRecord;
  usable(): SkillRecord[];
  /** With the next three, the source has a change feed (see `SkillSource.changes`). */
  snapshot?(): { generation: number };
  changedSince?(since: number): { ids: readonly string[] } | undefined;
  recordOf?(id: string): SkillRecord | undefined;
}

/** The registry as the runtime's skill source: the catalog lists usable skills; resolve keeps its typed errors. */
export function skillSourceOf(registry: RegistryLike): SkillSource {
  const source: SkillSource = {
    list: () => registry.usable(),
    resolve: (nameOrId) => registry.resolve(nameOrId),
  };
  const { snapshot, changedSince, recordOf } = registry;
  if (snapshot && changedSince && recordOf) {
    source.changes = (since?: SkillSourceCursor): SkillSourceChanges | undefined => {
      const cursor: SkillSourceCursor = { owner: source, generation: snapshot.call(registry).generation };
      if (!since) return { cursor, put: [], removed: [] };
      const ids = since.owner === source ? changedSince.call(registry, since.generation)?.ids : undefined;
      if (!ids) return undefined;
      // list() is the usable records: one that is now shadowed, ambiguous or broken has left it.
      const put: SkillRecord[] = [];
      const removed: string[] = [];
      for (const id of ids) {
        const r = recordOf.call(registry, id);
        if (r?.status === 'ok') put.push(r);
        else removed.push(id);
      }
      return { cursor, put, removed };
    };
  }
  return source;
}
