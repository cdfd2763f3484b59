import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { UsageError } from './usageError';
import { compareStrings } from '../core/text/compareStrings';

/** One skill folder named on the command line. */
export interface SkillTarget {
  /** Absolute skill folder. */
  dir: string;
  /** The path as the user wrote it (or joined from it), for output. */
  display: string;
}

const SKILL_FILES = ['SKILL.md', 'skill.md'];

async function hasSkillFile(dir: string): Promise<boolean> {
  const names = await fsp.readdir(dir).catch(() => [] as string[]);
  return SKILL_FILES.some((n) => names.includes(n));
}

/**
 * Resolves a command-line path: a SKILL.md file stands for its folder; a folder holding SKILL.md is one
 * skill; a folder whose child folders hold SKILL.md is a folder of skills; any other folder is taken as
 * a skill folder (and is then reported as missing SKILL.md).
 */
export async function resolveSkillTargets(arg: string): Promise<SkillTarget[]> {
  const abs = path.resolve(arg);
  const stat = await fsp.stat(abs).catch(() => undefined);
  if (!stat) throw new UsageError(`${arg} does not exist. Give a skill folder, a SKILL.md file, or a folder of skills.`);
  if (stat.isFile()) {
    if (path.basename(abs).toLowerCase() !== 'skill.md') throw new UsageError(`${arg} is a file but not SKILL.md. Give a skill folder, a SKILL.md file, or a folder of skills.`);
    return [{ dir: path.dirname(abs), display: path.dirname(arg) }];
  }
  if (await hasSkillFile(abs)) return [{ dir: abs, display: arg }];
  const entries = await fsp.readdir(abs, { withFileTypes: true });
  const children: SkillTarget[] = [];
  for (const e of entries.sort((a, b) => compareStrings(a.name, b.name))) {
    if (!e.isDirectory() || e.name.startsWith('.')) continue;
    if (await hasSkillFile(path.join(abs, e.name))) children.push({ dir: path.join(abs, e.name), display: path.join(arg, e.name) });
  }
  return children.length > 0 ? children : [{ dir: abs, display: arg }];
}

/** Resolves every argument, in order. */
export async function resolveAllTargets(args: readonly string[]): Promise<SkillTarget[]> {
  const out: SkillTarget[] = [];
  for (const a of args) out.push(...(await resolveSkillTargets(a)));
  return out;
}
