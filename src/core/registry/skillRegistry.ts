import * as path from 'node:path';
import type { ValidationMode } from '../skill/skillTypes';
import { applyPrecedence } from './applyPrecedence';
import { dedupeRoots } from './defaultSkillRoots';
import type { LoadedSkill } from './loadedSkill';
import type { SkillChecker } from './skillChecker';
import { localDisk } from '../host/localDisk';
import type { SkillsHost } from '../host/skillsHost';
import { AmbiguousSkillError, BrokenSkillError, SkillNotFoundError } from './registryErrors';
import { scanRoot, scanSkill, type ScanContext } from './scanRoot';
import { ChangeLog, type RegistryChanges } from './changeLog';
import { SkillTable } from './skillTable';
import { suggestNames } from './suggestNames';
import { TimeSlicer } from './timeSlicer';
import { contentChecker } from './validatorChecker';
import { rootConfig, type RootConfig } from './rootLintConfig';
import type { RuleConfig } from '../skill/ruleConfig';
import { sourceOf } from '../sources';
import type { RegistryChange, RegistrySnapshot, ScanStats, SkillRecord, SkillRoot } from './registryTypes';

/** Options of {@link createSkillRegistry}. */
export interface SkillRegistryOptions {
  /** Roots in any order; they are deduplicated and ordered by precedence. See `defaultSkillRoots`. */
  roots: readonly SkillRoot[];
  /** File access; the Node fs host by default. */
  host?: SkillsHost;
  /** Validation mode handed to the checker; `lenient` by default. */
  mode?: ValidationMode;
  /**
   * Produces each skill's diagnostics; any `error` makes the skill broken. Default: the validator's content
   * rules ({@link contentChecker}); `createFullChecker()` adds the reference and secret checks (warnings only).
   */
  check?: SkillChecker;
  /** Skill folders worked on at once; 8 by default. */
  concurrency?: number;
  /** Longest the registry runs before yielding to the event loop, in ms; 8 by default. */
  sliceMs?: number;
  /**
   * Apply the nearest `.agent-skills.yaml` at or above each writable root (rule levels, options, excludes), as the
   * CLI and the language server do; true by default.
   */
  lintConfig?: boolean;
  /** Rule settings laid over each writable root's file (VS Code's `agentSkills.validation.rules`), read at every scan. */
  ruleOverrides?: () => RuleConfig | undefined;
}

/** The skills of a set of roots, kept up to date by `refresh*` calls. */
export interface SkillRegistry {
  /** Rescans every root; unchanged SKILL.md files (same mtime and size) are not read again. */
  refresh(): Promise<RegistrySnapshot>;
  /** Rescans one root (by path or root), e.g. when a watcher saw a folder appear. */
  refreshRoot(root: SkillRoot | string): Promise<RegistrySnapshot>;
  /** Rereads one skill folder (whatever its stamps), e.g. when a watcher saw a file in it change. */
  refreshSkill(skillDir: string): Promise<RegistrySnapshot>;
  /** The root a skill folder lies directly in (whose plugin, scope and source it has), or undefined when none holds it. */
  rootOf(skillDir: string): SkillRoot | undefined;
  /** Replaces the roots (settings changed); call `refresh` afterwards. */
  setRoots(roots: readonly SkillRoot[]): void;
  snapshot(): RegistrySnapshot;
  /** Every record, sorted by name, precedence, then id. */
  all(): readonly SkillRecord[];
  /** The `ok` winners, one per name, sorted by name then id (byte order). */
  usable(): SkillRecord[];
  /**
   * The skill used for a name, or the record with that id. Throws SkillNotFoundError (with close names),
   * AmbiguousSkillError (listing the ids) or BrokenSkillError.
   */
  resolve(nameOrId: string): SkillRecord;
  onDidChange(listener: (change: RegistryChange) => void): { dispose(): void };
  /**
   * Ids of the records added, changed or removed (any status) after generation `since`, and the names they had or
   * have, each once; undefined when the registry no longer remembers that far back (or `since` is not one of its
   * generations): compare all records then.
   */
  changedSince(since: number): RegistryChanges | undefined;
  /** The current record with this canonical id (any status), without the errors of `resolve`. */
  recordOf(id: string): SkillRecord | undefined;
  /** The current records of this name (any status), in the order of `all()`. */
  recordsNamed(name: string): readonly SkillRecord[];
}

/** Creates a registry over `roots`. Nothing is read until `refresh()`. */
/** A registry as readers see it: what it found and its change feed, without the scans (the core's assembly owns those). */
export type SkillIndex = Omit<SkillRegistry, 'refresh' | 'refreshRoot' | 'refreshSkill' | 'setRoots'>;

export function createSkillRegistry(options: SkillRegistryOptions): SkillRegistry {
  const host = options.host ?? localDisk;
  const mode = options.mode ?? 'lenient';
  const check = options.check ?? contentChecker;
  let roots = dedupeRoots(options.roots);
  const byRoot = new Map<string, SkillTable>();
  const listeners = new Set<(change: RegistryChange) => void>();
  let current: RegistrySnapshot = { generation: 0, roots, records: [], stats: emptyStats() };
  // The current records by id and by name, replaced at each publish (so a follower's lookups cost no rebuild).
  let byId = new Map<string, SkillRecord>();
  let byName = new Map<string, SkillRecord[]>();
  const lookup = () => ({ byId, byName });
  const changes = new ChangeLog();
  let queue: Promise<unknown> = Promise.resolve();

  const rootOf = (skillDir: string): SkillRoot | undefined => {
    const parent = path.dirname(path.resolve(skillDir));
    return roots.find((r) => r.path === parent);
  };

  const serialize = <T>(job: () => Promise<T>): Promise<T> => {
    const run = queue.then(job, job);
    queue = run.catch(() => undefined);
    return run;
  };

  // Lint configuration applies to the skills you write (writable sources: workspace, user, extra roots), read once
  // per root and scan; installed plugins, packs, extensions and MCP servers are judged by the default rules.
  const configs = options.lintConfig === false ? undefined : new Map<string, Promise<RootConfig>>();
  const newContext = (): ScanContext => ({
    host,
    mode,
    check,
    configOf: configs
      ? (root) => {
          if (sourceOf(root.scope).readOnly) return undefined;
          let c = configs.get(root.path);
          if (!c) configs.set(root.path, (c = rootConfig(host, root.path, options.ruleOverrides?.())));
          return c;
        }
      : undefined,
    slicer: new TimeSlicer(options.sliceMs ?? 8),
    concurrency: options.concurrency ?? 8,
    counts: { skills: 0, loaded: 0, reused: 0 },
  });

  // Sliced like the scan: each step is a few ms even for 10,000 skills.
  const publish = async (ctx: ScanContext, started: number): Promise<RegistrySnapshot> => {
    const pause = () => ctx.slicer.checkpoint(true);
    const loaded: LoadedSkill[] = [];
    for (const root of roots) byRoot.get(root.path)?.pushTo(loaded);
    const records = applyPrecedence(loaded);
    await pause();
    const { change, ids, names } = diff(byId, records);
    await pause();
    const named = namesOf(records);
    await pause();
    const changedAny = change.added.length + change.removed.length + change.changed.length > 0;
    byId = ids;
    byName = named;
    ctx.slicer.finish();
    const stats: ScanStats = {
      ...ctx.counts,
      durationMs: performance.now() - started,
      longestSliceMs: ctx.slicer.longestSliceMs,
      longestSliceCpuMs: ctx.slicer.longestSliceCpuMs,
    };
    current = { generation: current.generation + (changedAny ? 1 : 0), roots, records, stats };
    if (changedAny) {
      changes.note(current.generation, [...change.added, ...change.changed, ...change.removed], names);
      for (const l of [...listeners]) {
        try {
          l({ snapshot: current, ...change });
        } catch {
          // A failing listener must not break the registry or the other listeners.
        }
      }
    }
    return current;
  };

  const scanRoots = async (which: readonly SkillRoot[]): Promise<RegistrySnapshot> => {
    const started = performance.now();
    // Each scan reads the configuration files again (they may have changed); unchanged ones keep the skills reused.
    configs?.clear();
    const ctx = newContext();
    for (const root of which) byRoot.set(root.path, await scanRoot(root, byRoot.get(root.path), ctx));
    return publish(ctx, started);
  };

  return {
    refresh: () =>
      serialize(() => {
        for (const key of [...byRoot.keys()]) if (!roots.some((r) => r.path === key)) byRoot.delete(key);
        return scanRoots(roots);
      }),
    refreshRoot: (root) =>
      serialize(() => {
        const p = path.resolve(typeof root === 'string' ? root : root.path);
        const known = roots.find((r) => r.path === p);
        return known ? scanRoots([known]) : Promise.resolve(current);
      }),
    refreshSkill: (skillDir) =>
      serialize(async () => {
        const dir = path.resolve(skillDir);
        const root = rootOf(dir);
        if (!root) return current;
        const started = performance.now();
        const ctx = newContext();
        const found = path.basename(dir).startsWith('.') ? undefined : await scanSkill(root, dir, undefined, ctx);
        const map = byRoot.get(root.path) ?? new SkillTable();
        if (found) map.set(dir, found);
        else map.delete(dir);
        byRoot.set(root.path, map);
        return publish(ctx, started);
      }),
    rootOf,
    setRoots(next) {
      roots = dedupeRoots(next);
    },
    snapshot: () => current,
    all: () => current.records,
    usable: () => current.records.filter((r) => r.status === 'ok'),
    resolve(nameOrId) {
      const { byId, byName } = lookup();
      const exact = byId.get(nameOrId);
      if (exact) {
        if (exact.status === 'broken') throw new BrokenSkillError(exact);
        return exact;
      }
      const group = byName.get(nameOrId) ?? [];
      const ok = group.find((r) => r.status === 'ok');
      if (ok) return ok;
      const ambiguous = group.filter((r) => r.status === 'ambiguous');
      if (ambiguous.length) throw new AmbiguousSkillError(nameOrId, ambiguous.map((r) => r.id), ambiguous.map((r) => r.location));
      if (group.length) throw new BrokenSkillError(group[0]);
      throw new SkillNotFoundError(nameOrId, suggestNames(nameOrId, byName.keys()));
    },
    onDidChange(listener) {
      listeners.add(listener);
      return { dispose: () => void listeners.delete(listener) };
    },
    changedSince: (since) => changes.since(since, current.generation),
    recordOf: (id) => byId.get(id),
    recordsNamed: (name) => lookup().byName.get(name) ?? [],
  };
}

function namesOf(records: readonly SkillRecord[]): Map<string, SkillRecord[]> {
  const byName = new Map<string, SkillRecord[]>();
  for (const r of records) {
    const list = byName.get(r.name);
    if (list) list.push(r);
    else byName.set(r.name, [r]);
  }
  return byName;
}

function emptyStats(): ScanStats {
  return { skills: 0, loaded: 0, reused: 0, durationMs: 0, longestSliceMs: 0, longestSliceCpuMs: 0 };
}

function sameList(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  return a.every((x, i) => x === b[i]);
}

/** True when nothing a listener cares about differs (diagnostics compared by rule and message). */
function sameRecord(a: SkillRecord, b: SkillRecord): boolean {
  // A skill reused by a rescan is the same object: nothing to compare (nor a digest to compute).
  if (a === b) return true;
  return (
    a.location === b.location &&
    a.digest === b.digest &&
    a.status === b.status &&
    a.shadowedBy === b.shadowedBy &&
    sameList(a.shadows, b.shadows) &&
    sameList(a.ambiguousWith, b.ambiguousWith) &&
    (a.diagnostics === b.diagnostics ||
      (a.diagnostics.length === b.diagnostics.length && a.diagnostics.every((d, i) => d.rule === b.diagnostics[i].rule && d.message === b.diagnostics[i].message)))
  );
}

/** What changed from the records `before` (by id) to `after`, and `after` by id (a later duplicate id is ignored). */
function diff(before: ReadonlyMap<string, SkillRecord>, after: readonly SkillRecord[]): { change: Omit<RegistryChange, 'snapshot'>; ids: Map<string, SkillRecord>; names: string[] } {
  const ids = new Map<string, SkillRecord>();
  const added: string[] = [];
  const changed: string[] = [];
  const names = new Set<string>();
  for (const r of after) {
    if (ids.has(r.id)) continue;
    ids.set(r.id, r);
    const o = before.get(r.id);
    if (!o) {
      added.push(r.id);
      names.add(r.name);
    } else if (!sameRecord(o, r)) {
      changed.push(r.id);
      names.add(r.name).add(o.name);
    }
  }
  const removed: string[] = [];
  if (before.size + added.length > ids.size) {
    for (const [id, o] of before) {
      if (ids.has(id)) continue;
      removed.push(id);
      names.add(o.name);
    }
  }
  return { change: { added, removed, changed }, ids, names: [...names] };
}
