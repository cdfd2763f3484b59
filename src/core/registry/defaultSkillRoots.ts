import * as path from 'node:path';
import { absolutePath } from '../paths/absolutePath';
import { sourceRank } from '../sources';
import type { SkillRoot, SkillScope } from './registryTypes';

/** Skill folders inside each workspace folder, as VS Code's built-in skill support reads them. */
export const PROJECT_SKILL_DIRS = ['.github/skills', '.agents/skills', '.claude/skills'] as const;
/** Skill folders inside the user's home folder. */
export const USER_SKILL_DIRS = ['.copilot/skills', '.agents/skills', '.claude/skills'] as const;

/** Inputs of {@link defaultSkillRoots}; every part is optional. */
export interface DefaultSkillRootsInput {
  /** Absolute paths of the workspace folders (the workspace source). */
  workspaceFolders?: readonly string[];
  /** The user's home folder (the user source); omitted means no user roots. */
  homeDir?: string;
  /** Roots from configuration, with the scope the caller gives them. */
  extraRoots?: readonly { path: string; scope: SkillScope; source?: string }[];
  /** Skill folders contributed by other packages: `source` is the contributing extension id. */
  pluginRoots?: readonly { path: string; source: string }[];
}

/**
 * The roots to scan, in precedence order (the sources' ranks): workspace (each workspace folder's `.github/skills`,
 * `.agents/skills`, `.claude/skills`, then workspace extra roots), user (`~/.copilot/skills`,
 * `~/.agents/skills`, `~/.claude/skills`, then user extra roots), extension, pack.
 * A path listed twice is kept once, at its first (highest) place.
 */
export function defaultSkillRoots(input: DefaultSkillRootsInput): SkillRoot[] {
  const roots: SkillRoot[] = [];
  for (const folder of input.workspaceFolders ?? []) {
    for (const dir of PROJECT_SKILL_DIRS) roots.push({ path: path.join(folder, dir), scope: 'workspace', source: 'workspace' });
  }
  if (input.homeDir) {
    for (const dir of USER_SKILL_DIRS) roots.push({ path: path.join(input.homeDir, dir), scope: 'user', source: 'user' });
  }
  for (const r of input.extraRoots ?? []) roots.push({ path: path.resolve(r.path), scope: r.scope, source: r.source ?? 'config' });
  for (const r of input.pluginRoots ?? []) roots.push({ path: path.resolve(r.path), scope: 'extension', source: r.source });
  return dedupeRoots(roots).sort((a, b) => sourceRank(a.scope) - sourceRank(b.scope));
}

/** Drops roots whose resolved path appeared before (Array.sort is stable, so order is kept otherwise). */
export function dedupeRoots(roots: readonly SkillRoot[]): SkillRoot[] {
  const sorted = [...roots].sort((a, b) => sourceRank(a.scope) - sourceRank(b.scope));
  const seen = new Set<string>();
  const out: SkillRoot[] = [];
  for (const r of sorted) {
    const key = absolutePath(r.path);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(key === r.path ? r : { ...r, path: key });
  }
  return out;
}
