import type { SkillRecord } from '../registry/registryTypes';
import type { SkillSource } from './runtimeTypes';

/** The part of the skill registry the runtime uses. */
export interface RegistryLike {
  resolve(nameOrId: string): SkillRecord;
  usable(): SkillRecord[];
}

/** The registry as the runtime's skill source: the catalog lists usable skills; resolve keeps its typed errors. */
export function skillSourceOf(registry: RegistryLike): SkillSource {
  return {
    list: () => registry.usable(),
    resolve: (nameOrId) => registry.resolve(nameOrId),
  };
}
