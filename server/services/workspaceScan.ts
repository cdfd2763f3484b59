import * as path from 'node:path';
import type { SyncSkillsHost } from '../../src/core/host/skillsHost';
import { listDirSync } from '../fileSystem';
import { SKIP } from '../../src/core/paths/walkSkill';

const SKIPPED = new Set<string>([...SKIP.vcs, ...SKIP.dependencies, ...SKIP.build]);

/** Limits for a workspace scan, so a giant workspace cannot keep the server busy forever. */
export interface ScanLimits {
  maxDirs: number;
  maxDepth: number;
}

export const DEFAULT_SCAN_LIMITS: ScanLimits = { maxDirs: 50_000, maxDepth: 12 };

/**
 * Finds every file named SKILL.md under the given roots. Hidden folders are visited (skills live in
 * `.github/skills`, `.claude/skills`, ...), build and dependency folders are not. Yields to the event
 * loop every few folders so requests keep being answered during the scan.
 */
export async function findSkillFiles(fsys: SyncSkillsHost, roots: string[], limits: ScanLimits = DEFAULT_SCAN_LIMITS): Promise<string[]> {
  return findFiles(fsys, roots, (name) => name === 'SKILL.md', limits);
}

/** Every file whose name `wanted` accepts under the given roots, with the scan rules of {@link findSkillFiles}. */
export async function findFiles(fsys: SyncSkillsHost, roots: string[], wanted: (name: string) => boolean, limits: ScanLimits = DEFAULT_SCAN_LIMITS): Promise<string[]> {
  const found: string[] = [];
  const queue: { dir: string; depth: number }[] = roots.map((dir) => ({ dir, depth: 0 }));
  let visited = 0;
  while (queue.length > 0 && visited < limits.maxDirs) {
    const { dir, depth } = queue.shift()!;
    visited++;
    for (const e of listDirSync(fsys, dir)) {
      if (e.kind === 'file' && wanted(e.name)) found.push(path.join(dir, e.name));
      else if (e.kind === 'directory' && !SKIPPED.has(e.name) && depth < limits.maxDepth) queue.push({ dir: path.join(dir, e.name), depth: depth + 1 });
    }
    if (visited % 64 === 0) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return found.sort();
}
