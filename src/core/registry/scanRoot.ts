import * as path from 'node:path';
import type { ValidationMode } from '../skill/skillTypes';
import type { LoadedSkill } from './loadedSkill';
import { FILE_SUFFIXES, isPromise, loadSkill, readHeld, type SkillChecker } from './loadSkill';
import type { FileStamp, MaybePromise, SkillsHost } from '../host/skillsHost';
import type { TimeSlicer } from './timeSlicer';
import { SkillTable } from './skillTable';
import type { RootConfig } from './rootLintConfig';
import type { SkillRoot } from './registryTypes';

/** Everything a scan needs besides the root. */
export interface ScanContext {
  host: SkillsHost;
  mode: ValidationMode;
  check: SkillChecker;
  slicer: TimeSlicer;
  /** How many skill folders are worked on at once (matters for asynchronous hosts). */
  concurrency: number;
  counts: { skills: number; loaded: number; reused: number };
  /**
   * The lint configuration of a root (`.agent-skills.yaml` at or above it), remembered for the scan; undefined
   * at once for a root no configuration applies to (installed plugins, packs...).
   */
  configOf?(root: SkillRoot): Promise<RootConfig> | undefined;
}

/**
 * Scans the direct child folders of `root` (folders whose names start with `.` are skipped) and returns
 * the skills found, keyed by skill folder. A skill in `previous` whose SKILL.md (or skill.md) still has
 * the same mtime and size is reused without reading it. A missing root gives an empty map.
 */
export async function scanRoot(root: SkillRoot, previous: SkillTable | undefined, ctx: ScanContext): Promise<SkillTable> {
  // The root's configuration rides with the checker; when it changed since the last scan, no skill is reused.
  const pending = ctx.configOf?.(root);
  const config = pending ? await pending : undefined;
  if (config?.loaded) {
    const base = ctx.check;
    ctx = { ...ctx, check: (input) => base({ ...input, config: config.loaded }) };
  }
  if (previous && previous.configStamp !== (config?.stamp ?? '')) previous = undefined;
  const names: string[] = [];
  const dirs: string[] = [];
  // Root paths are resolved and entry names have no separators. One prefix string for all: each folder
  // path is then one concatenation, not two (these strings live as long as the registry's records).
  const prefix = root.path + path.sep;
  // A root that names its skill folders (an Agent Plugin's, listed by its reader a moment ago) is not listed again:
  // a name gone since is simply not a skill (its SKILL.md is not found).
  if (root.only) {
    for (const name of root.only) {
      if (name.charCodeAt(0) === 46 /* . */) continue;
      names.push(name);
      dirs.push(prefix + name);
    }
  } else {
    const entries = await ctx.host.readDirectory(root.path);
    if (!entries) return new SkillTable();
    for (const e of entries) {
      if ((e.kind === 'directory' || e.kind === 'symlink') && e.name.charCodeAt(0) !== 46 /* . */) {
        names.push(e.name);
        dirs.push(prefix + e.name);
      }
    }
  }
  const results: (LoadedSkill | undefined)[] = new Array(dirs.length);
  let next = 0;
  const scanAt = (i: number) => scanSkill(root, dirs[i], previous?.get(dirs[i], i), ctx, names[i]);
  const worker = async () => {
    while (next < dirs.length) {
      const i = next++;
      const r = scanAt(i);
      results[i] = isPromise(r) ? await r : r;
      const pause = ctx.slicer.checkpoint();
      if (pause) await pause;
    }
  };
  // A synchronous host (and checker) answers at once: one loop, no worker promises (a root of an Agent Plugin holds a
  // handful of skills, and discovery reads hundreds of such roots). The first answer that is a promise starts the
  // workers, which then keep `concurrency` skills in flight.
  while (next < dirs.length) {
    const i = next++;
    const r = scanAt(i);
    if (isPromise(r)) {
      const workers = Array.from({ length: Math.max(0, Math.min(ctx.concurrency - 1, dirs.length - next)) }, worker);
      await Promise.all([r.then((v) => (results[i] = v)), ...workers]);
      break;
    }
    results[i] = r;
    const pause = ctx.slicer.checkpoint();
    if (pause) await pause;
  }
  // With a concurrency of 1 no worker was started beside the first promise: one finishes the list.
  if (next < dirs.length) await worker();
  // Kept by listing position (folders without a skill too): the hints of the next rescan.
  const table = new SkillTable(dirs, results);
  table.configStamp = config?.stamp ?? '';
  return table;
}

/**
 * Loads one skill folder, or reuses `cached` when its file is unchanged. `undefined`: not a skill.
 * Synchronous when there is nothing cached and the host and checker are synchronous.
 */
export function scanSkill(root: SkillRoot, skillDir: string, cached: LoadedSkill | undefined, ctx: ScanContext, folderName?: string): MaybePromise<LoadedSkill | undefined> {
  ctx.counts.skills++;
  if (cached) return rescanSkill(root, skillDir, cached, ctx, folderName);
  // A cold read asks no stamp where the host can spare it: the first rescan compares the content instead.
  const loaded = loadSkill(ctx.host, root, skillDir, ctx.mode, ctx.check, folderName, true);
  return isPromise(loaded) ? loaded.then((l) => counted(ctx, l)) : counted(ctx, loaded);
}

async function rescanSkill(root: SkillRoot, skillDir: string, cached: LoadedSkill, ctx: ScanContext, folderName?: string): Promise<LoadedSkill | undefined> {
  if (await unchanged(ctx.host, root, cached)) {
    ctx.counts.reused++;
    return cached;
  }
  return counted(ctx, await loadSkill(ctx.host, root, skillDir, ctx.mode, ctx.check, folderName));
}

function counted(ctx: ScanContext, loaded: LoadedSkill | undefined): LoadedSkill | undefined {
  if (loaded) ctx.counts.loaded++;
  return loaded;
}

async function unchanged(host: SkillsHost, root: SkillRoot, cached: LoadedSkill): Promise<boolean> {
  try {
    // A skill read from skill.md is reloaded once a SKILL.md appears beside it (which then wins).
    if (!cached.location.endsWith(FILE_SUFFIXES[0]) && (await host.stat(cached.rootDir + FILE_SUFFIXES[0]))) return false;
    const now = await host.stat(cached.location);
    if (!Number.isNaN(cached.mtimeMs)) return sameStamp(now, cached);
    // Read without its stamp: the first rescan compares the content read now (stamped) with the skill's, once.
    if (!now || now.size !== cached.size) return false;
    const read = await readHeld(host, root, cached.location);
    if (!read || !cached.sameContent(read.bytes)) return false;
    cached.stampWith(read);
    return true;
  } catch {
    return false;
  }
}

function sameStamp(a: FileStamp | undefined, b: FileStamp): boolean {
  return !!a && a.mtimeMs === b.mtimeMs && a.size === b.size;
}
