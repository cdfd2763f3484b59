import type { SkillSource } from './runtimeTypes';

/**
 * A source that asks `current()` on every call: for a runtime built before the source it reads is known (the MCP
 * server opens its catalog over the factory's registry) or that changes under it (the extension switches from
 * the registry to the catalog once the catalog is open). Every method, optional ones included, is forwarded.
 */
const DONE: Promise<void> = Promise.resolve();

export function lateSource(current: () => SkillSource): SkillSource {
  return {
    resolve: (nameOrId) => current().resolve(nameOrId),
    list: () => current().list(),
    overlayDir: (id) => current().overlayDir?.(id),
    prepare: (tool, input) => current().prepare?.(tool, input) ?? DONE,
    // A cursor names the source that gave it: after a switch the new source refuses the old one's cursor.
    changes: (since) => current().changes?.(since),
  };
}
