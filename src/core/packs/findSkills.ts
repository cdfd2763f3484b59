import { promises as fs } from 'node:fs';
import * as path from 'node:path';

const SKILL_FILE = 'SKILL.md';

async function hasSkillFile(dir: string): Promise<boolean> {
  return (await fs.stat(path.join(dir, SKILL_FILE)).catch(() => undefined))?.isFile() ?? false;
}

/**
 * The skill folders of an extracted pack: the root itself when it holds SKILL.md,
 * otherwise every direct child folder that does. A root whose only content is one
 * folder (as in GitHub archives, "repo-main/") is looked into once.
 */
export async function findPackSkills(root: string): Promise<string[]> {
  if (await hasSkillFile(root)) return [root];
  const entries = (await fs.readdir(root, { withFileTypes: true })).filter((e) => !e.name.startsWith('.'));
  const found: string[] = [];
  for (const e of entries) {
    if (e.isDirectory() && (await hasSkillFile(path.join(root, e.name)))) found.push(path.join(root, e.name));
  }
  if (found.length === 0 && entries.length === 1 && entries[0].isDirectory()) return findPackSkills(path.join(root, entries[0].name));
  return found.sort();
}
