// The one way a kind of skill source plugs into the core. Every kind's reader implements this interface; the
// factory (`createAgentSkills`) opens the readers of the kinds table (`sources/sourceKinds.ts`) with one context and composes
// them: their folders join the registry's roots, their file filters the one host, their served skills the
// runtime's source, their run hooks the executor. Nothing outside the factory wraps a source.
import type { SyncWritableHost } from '../host/fileWrites';
import type { SkillRegistry } from '../registry/skillRegistry';
import type { SkillRoot } from '../registry/registryTypes';
import type { ScriptExecutor, SkillSource } from '../runtime/runtimeTypes';
import type { SourceKind } from '../sources/sourceKind';

/** What the factory gives every reader it opens: the core's state folder, its registry and host, and where notes go. */
export interface SourceReaderContext {
  /** The core's state folder (sessions, revisions, caches). */
  readonly stateDir: string;
  /** The registry the core scans (read lazily: readers are opened before it exists). */
  readonly registry: Pick<SkillRegistry, 'rootOf'>;
  /** The one file host, with every reader's file filter in front (read lazily, as `registry`). */
  readonly host: SyncWritableHost;
  /** Where Agent Plugins keep their `PLUGIN_DATA` folders. */
  readonly pluginDataDir: string;
  /** Where archives are unpacked on this machine's disk, when the core was given one. */
  readonly packCacheDir?: string;
  /** The core's logger (the extension's output channel, the CLI's stderr, or nothing). */
  readonly log: { warn(message: string): void };
}

/**
 * One source of skills, as the core sees it. Its kind says its scope word, its precedence (`rank`), whether it is
 * trusted like the workspace (`inWorkspace`) and whether it is written in place (`readOnly`); the members say what
 * it lists, how its files are read, what it adds to a run, and what it can say about changes. Each member is
 * optional: a kind without it contributes nothing there.
 */
export interface SkillSourceReader {
  readonly kind: SourceKind;
  /** Makes its folders ready (a pack is downloaded and unpacked); `roots()` is current once it resolves. */
  prepare?(): Promise<void>;
  /** The folders it lists, scanned by the registry beside the core's own roots. */
  roots?(): readonly SkillRoot[];
  /** How its files are read: a filter in front of the one host (e.g. only the skill folders a package names). */
  files?(host: SyncWritableHost): SyncWritableHost;
  /**
   * The skills it serves beside the scanned ones (an MCP server's), joined to the runtime's source. The result's
   * `changes` is the change feed: undefined where it cannot say what changed (the runtime then compares the list).
   */
  serve?(base: SkillSource): SkillSource;
  /** What it adds to a run of one of its skills (its plugin's folders) or refuses (MCP-served skills never run). */
  runs?(next: ScriptExecutor): ScriptExecutor;
  /** Lets go of what it holds (connections, timers). */
  dispose?(): void | Promise<void>;
}

/** A reader a front end configured (the servers it connected, the packs its settings name), opened by the factory. */
export interface SourceReaderSpec {
  readonly kind: SourceKind;
  open(context: SourceReaderContext): SkillSourceReader;
}

/**
 * The readers of one core: for every kind of the kinds table, in its order, the ones a front end gave, else the
 * kind's reader by default (if it has one). A reader of a kind the table does not list is refused.
 */
export function openReaders(
  kinds: readonly SourceKind[],
  byDefault: Readonly<Record<string, (context: SourceReaderContext) => SkillSourceReader>>,
  given: readonly SourceReaderSpec[],
  context: SourceReaderContext,
): SkillSourceReader[] {
  for (const g of given) {
    if (!kinds.some((k) => k.name === g.kind.name)) throw new Error(`Skill source kind '${g.kind.name}' has no line in the kinds table (src/core/sources/sourceKinds.ts); add it there.`);
  }
  return kinds.flatMap((k) => {
    const mine = given.filter((g) => g.kind.name === k.name);
    if (mine.length) return mine.map((g) => g.open(context));
    const d = byDefault[k.name]?.(context);
    return d ? [d] : [];
  });
}

/** The host with every reader's file filter in front, the first reader's outermost. */
export function filteredHost(readers: readonly Pick<SkillSourceReader, 'files'>[], host: SyncWritableHost): SyncWritableHost {
  return readers.reduceRight((h, r) => r.files?.(h) ?? h, host);
}

/** The runtime's source with every reader's served skills joined. */
export function servedSource(readers: readonly SkillSourceReader[], base: SkillSource): SkillSource {
  return readers.reduce((s, r) => r.serve?.(s) ?? s, base);
}

/** The executor with every reader's run hook in front, the first reader's outermost. */
export function runsThrough(readers: readonly SkillSourceReader[], executor: ScriptExecutor): ScriptExecutor {
  return readers.reduceRight((e, r) => r.runs?.(e) ?? e, executor);
}
