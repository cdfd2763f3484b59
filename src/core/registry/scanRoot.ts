import * as path from 'node:path';
import type { ValidationMode } from '../skill/types';
import { loadSkill, type LoadedSkill, type SkillChecker } from './loadSkill';
import type { FileStamp, RegistryHost } from './registryHost';
import type { TimeSlicer } from './timeSlicer';
import type { SkillRoot } from './types';

/** Everything a scan needs besides the root. */
export interface ScanContext {
  host: RegistryHost;
  mode: ValidationMode;
  check: SkillChecker;
  slicer: TimeSlicer;
  /** How many skill folders are worked on at once (matters for asynchronous hosts). */
  concurrency: number;
  counts: { skills: number; loaded: number; reused: number };
}

/**
 * Scans the direct child folders of `root` (folders whose names start with `.` are skipped) and returns
 * the skills found, keyed by skill folder. A skill in `previous` whose SKILL.md (or skill.md) still has
 * the same mtime and size is reused without reading it. A missing root gives an empty map.
 */
export async function scanRoot(root: SkillRoot, previous: ReadonlyMap<string, LoadedSkill> | undefined, ctx: ScanContext): Promise<Map<string, LoadedSkill>> {
  const found = new Map<string, LoadedSkill>();
  const entries = await ctx.host.readDirectory(root.path);
  if (!entries) return found;
  const dirs = entries
    .filter((e) => (e.kind === 'directory' || e.kind === 'symlink') && !e.name.startsWith('.'))
    .map((e) => root.path + path.sep + e.name); // root paths are resolved; entry names have no separators
  const results: (LoadedSkill | undefined)[] = new Array(dirs.length);
  let next = 0;
  const worker = async () => {
    while (next < dirs.length) {
      const i = next++;
      results[i] = await scanSkill(root, dirs[i], previous?.get(dirs[i]), ctx);
      const pause = ctx.slicer.checkpoint();
      if (pause) await pause;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(ctx.concurrency, dirs.length)) }, worker));
  for (let i = 0; i < dirs.length; i++) {
    const r = results[i];
    if (r) found.set(dirs[i], r);
  }
  return found;
}

/** Loads one skill folder, or reuses `cached` when its file is unchanged. `undefined`: not a skill. */
export async function scanSkill(root: SkillRoot, skillDir: string, cached: LoadedSkill | undefined, ctx: ScanContext): Promise<LoadedSkill | undefined> {
  ctx.counts.skills++;
  if (cached && (await unchanged(ctx.host, cached))) {
    ctx.counts.reused++;
    return cached;
  }
  const loaded = await loadSkill(ctx.host, root, skillDir, ctx.mode, ctx.check);
  if (loaded) ctx.counts.loaded++;
  return loaded;
}

async function unchanged(host: RegistryHost, cached: LoadedSkill): Promise<boolean> {
  try {
    if (cached.fileName !== 'SKILL.md' && (await host.stat(path.join(cached.rootDir, 'SKILL.md')))) return false;
    return sameStamp(await host.stat(cached.location), cached.stamp);
  } catch {
    return false;
  }
}

function sameStamp(a: FileStamp | undefined, b: FileStamp): boolean {
  return !!a && a.mtimeMs === b.mtimeMs && a.size === b.size;
}
