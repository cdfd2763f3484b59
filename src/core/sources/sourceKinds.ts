import type { SourceKind } from './sourceKind';

/**
 * The kinds table: every kind of skill source, one line each, highest precedence first. A kind is defined here once
 * (its name, precedence, trust, id and wording) and known wherever a registry runs (the language server, tests and
 * scripts too) by this module alone; what it reads and adds to a run is its reader in `src/core/sourceReaders/`,
 * which names it by `sourceOf(name)`. A new kind is its line here plus its reader file.
 */
export const SOURCE_KINDS: readonly SourceKind[] = [
  // The opened folders (`.github/skills`, `.agents/skills`, `.claude/skills`): they win over all others.
  { name: 'workspace', rank: 0, readOnly: false, label: 'Workspace', idPrefix: 'workspace', idHasSource: false, scopeWord: 'project', inWorkspace: true },
  // The user's home folder (`~/.copilot/skills` ...) and extra roots configured at user scope.
  { name: 'user', rank: 1, readOnly: false, label: 'User', idPrefix: 'user', idHasSource: false, scopeWord: 'user', inWorkspace: false },
  // An installed Agent Plugin (agent-plugins.org 1.0, or a Claude Code, Copilot or Codex plugin folder): ids
  // `plugin:<plugin name>:<skill>`, below user skills (seed 002), edited through overlay revisions.
  { name: 'agent-plugin', rank: 1.8, readOnly: true, label: 'Plugins', idPrefix: 'plugin', idHasSource: true, scopeWord: 'agent-plugin', inWorkspace: false },
  // Installed VS Code extensions (`chatSkills` in their package.json): ids keep the first release's
  // `plugin:<publisher.ext>:` prefix; in the extension's install folder, so edited through overlays.
  { name: 'extension', rank: 2, readOnly: true, label: 'Extensions', idPrefix: 'plugin', idHasSource: true, scopeWord: 'plugin', inWorkspace: false },
  // An installed skill pack (a downloaded archive), edited through overlays.
  { name: 'pack', rank: 3, readOnly: true, label: 'Packs', idPrefix: 'pack', idHasSource: true, scopeWord: 'pack', inWorkspace: false },
  // What an MCP server serves (`skill://` resources), fetched into a cache: never executed, and after every local
  // kind so it never shadows a skill on disk. Ids carry the server: `mcp:<server>:<skill>`.
  { name: 'mcp', rank: 4, readOnly: true, label: 'MCP servers', idPrefix: 'mcp', idHasSource: true, scopeWord: 'mcp', inWorkspace: false },
];

const kinds = new Map<string, SourceKind>();
for (const k of SOURCE_KINDS) registerSourceKind(k);

/**
 * Adds a kind of skill source beside the table's (the table's own lines are checked by it too). Names, id prefixes
 * and scope words must be unique, since ids and settings are read back through them. Returns a disposable that
 * removes the kind again (for tests and for kinds that belong to something that can go away).
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
  if (!kind) throw new Error(`Unknown skill source kind '${name}': known kinds are ${[...kinds.keys()].join(', ')}. Add its line to the kinds table (src/core/sources/sourceKinds.ts).`);
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
