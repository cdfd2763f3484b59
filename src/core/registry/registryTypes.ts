import type { SkillDiagnostic } from '../skill/skillTypes';

/**
 * The name of the kind of source a skill comes from (see `core/sources`): `workspace`, `user`, `extension`,
 * `pack`, or a kind registered later. Ask `sourceOf(scope)` for its precedence, read-only-ness and labels.
 */
// Open to kinds registered later; `(string & {})` keeps the built-in names offered by the editor.
export type SkillScope = 'workspace' | 'user' | 'extension' | 'pack' | (string & {});

/** A folder whose direct child folders are skills. */
export interface SkillRoot {
  /** Absolute path of the folder that holds skill folders. */
  path: string;
  scope: SkillScope;
  /** Who contributed the root: `config`, a VS Code extension id, a pack name, or a built-in location label. */
  source?: string;
  /**
   * Only these child folders are skills (an Agent Plugin's vetted skills: inside the plugin root, with a
   * SKILL.md file); every child folder when absent.
   */
  only?: readonly string[];
  /** The Agent Plugin this root belongs to: its scripts get the plugin's variables (see `PluginRunContext`). */
  plugin?: PluginOfRoot;
}

/** The installed plugin a skill root comes from. */
export interface PluginOfRoot {
  /** The plugin's name from its manifest (`PLUGIN_DATA` is kept per name and install place, so it survives updates). */
  name: string;
  /** The manifest's version, when it gives one. */
  version?: string;
  /** Absolute path of the plugin folder (`PLUGIN_ROOT`). */
  root: string;
  /** The manifest layout; Claude Code plugins' scripts also get `CLAUDE_PLUGIN_ROOT` and friends. */
  layout: string;
}

/** One discovered skill: seed 000's SkillRecord plus scope, digest and what it shadows. */
export interface SkillRecord {
  /** Canonical id `<source>:<name>`: `workspace:pdf`, `user:pdf`, `plugin:<publisher.ext>:pdf`, `pack:<pack>:pdf`. */
  id: string;
  /** The frontmatter name; the folder name when the name is missing. */
  name: string;
  description: string;
  /** Absolute path to SKILL.md (or skill.md). */
  location: string;
  /** Absolute path of the skill folder. */
  rootDir: string;
  scope: SkillScope;
  root: SkillRoot;
  /** Parsed frontmatter, keys as written, scalars as strings. */
  properties: Record<string, unknown>;
  /** `sha256:<hex>` of the SKILL.md bytes. */
  digest: string;
  /** Validation findings in the registry's mode (lenient unless configured). */
  diagnostics: SkillDiagnostic[];
  /**
   * `ok`: usable and the one used for its name; `broken`: has errors, kept with its diagnostics;
   * `shadowed`: a higher-precedence skill of the same name wins; `ambiguous`: another skill of the same name
   * in the same scope, so neither wins.
   */
  status: 'ok' | 'broken' | 'shadowed' | 'ambiguous';
  /** Ids of the skills this one shadows (same name, lower precedence). */
  shadows: string[];
  /** Id of the skill that shadows this one, when status is `shadowed`. */
  shadowedBy?: string;
  /** Ids of the other skills it is ambiguous with, when status is `ambiguous`. */
  ambiguousWith?: string[];
}

/** Counts from the last scan, for diagnostics and the benchmark. */
export interface ScanStats {
  /** Skill folders looked at. */
  skills: number;
  /** SKILL.md files read and checked. */
  loaded: number;
  /** Skills kept from the previous scan because their SKILL.md has the same mtime and size. */
  reused: number;
  durationMs: number;
  /**
   * Longest run (ms) between two of the registry's own yields to the event loop. With a synchronous host
   * this bounds how long the scan blocks the loop; with an asynchronous host it over-estimates.
   */
  longestSliceMs: number;
  /** CPU time (ms) of that longest run: not inflated when other processes take the CPU away. */
  longestSliceCpuMs: number;
}

/** An immutable view of the registry after a refresh. */
export interface RegistrySnapshot {
  /** Increases by one on every change. */
  generation: number;
  roots: readonly SkillRoot[];
  /** Every record (ok, shadowed, ambiguous and broken), sorted by name, precedence, then id. */
  records: readonly SkillRecord[];
  stats: ScanStats;
}

/** What changed in one refresh, by id. */
export interface RegistryChange {
  snapshot: RegistrySnapshot;
  added: string[];
  removed: string[];
  /** Records whose content, status, shadowing or diagnostics changed. */
  changed: string[];
}

/** Where a skill source's change feed stood (the runtime's `SkillSource.changes`): opaque, read only by the source that gave it. */
export interface SkillSourceCursor {
  readonly owner: object;
  readonly generation: number;
}

/** What changed in a source's `list()` since a cursor. */
export interface SkillSourceChanges {
  cursor: SkillSourceCursor;
  /** Skills now in `list()` that were added or changed. */
  put: readonly SkillRecord[];
  /** Ids no longer in `list()`. */
  removed: readonly string[];
}
