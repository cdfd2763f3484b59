import { extensionSource } from './extensionSource';
import { agentPluginSource } from './agentPluginSource';
import { mcpSource } from './mcpSource';
import { packSource } from './packSource';
import type { SourceKind } from './sourceKind';
import { userSource } from './userSource';
import { workspaceSource } from './workspaceSource';

/**
 * The built-in kinds, known wherever a registry runs (the language server too). A new kind of source is its file
 * and its line in the kinds table of src/core/sourceReaders/index.ts, which registers it when the core is built.
 */
const BUILT_IN: readonly SourceKind[] = [workspaceSource, userSource, agentPluginSource, extensionSource, packSource, mcpSource];

const kinds = new Map<string, SourceKind>();
for (const k of BUILT_IN) registerSourceKind(k);

/**
 * Adds a kind of skill source. Names, id prefixes and scope words must be unique, since ids and settings
 * are read back through them. Returns a disposable that removes the kind again (for tests and for
 * kinds that belong to something that can go away).
 */
export function registerSourceKind(kind: SourceKind): { dispose(): void } {
  for (const other of kinds.values()) {
    // Two kinds may share an id prefix when both put their source in the id (`plugin:<extension id>:x` and
    // `plugin:<plugin name>:x`): the registry tells equal ids apart with `@<folder>`.
    const samePrefix = other.idPrefix === kind.idPrefix && !(other.idHasSource && kind.idHasSource);
    const clash = other.name === kind.name ? 'name' : samePrefix ? 'idPrefix' : other.scopeWord === kind.scopeWord ? 'scopeWord' : undefined;
    if (clash) throw new Error(`Source kind '${kind.name}': its ${clash} '${(kind as unknown as Record<string, string>)[clash]}' is taken by the kind '${other.name}'; pick another ${clash}.`);
  }
  kinds.set(kind.name, kind);
  return { dispose: () => void (kinds.get(kind.name) === kind && kinds.delete(kind.name)) };
}

/** The kind named `name` (the `scope` of a root or record), or undefined when none is registered. */
export function findSource(name: string): SourceKind | undefined {
  return kinds.get(name);
}

/** The kind named `name`; throws naming the known kinds when there is none (a programming error, not user input). */
export function sourceOf(name: string): SourceKind {
  const kind = kinds.get(name);
  if (!kind) throw new Error(`Unknown skill source kind '${name}': known kinds are ${[...kinds.keys()].join(', ')}. Register the kind with registerSourceKind first.`);
  return kind;
}

/** The kind users call `word` (in settings and `--root`), or undefined. */
export function sourceForScopeWord(word: string): SourceKind | undefined {
  for (const k of kinds.values()) if (k.scopeWord === word) return k;
  return undefined;
}

/** Every registered kind, highest precedence first (then by name, so the order is stable). */
export function allSources(): SourceKind[] {
  return [...kinds.values()].sort((a, b) => a.rank - b.rank || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Precedence rank of a kind by name; unknown kinds rank after every known one. */
export function sourceRank(name: string | undefined): number {
  return (name !== undefined ? kinds.get(name)?.rank : undefined) ?? Number.MAX_SAFE_INTEGER;
}
