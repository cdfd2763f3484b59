/**
 * Shared by the crash test and its child writer: the seeded random source and the
 * exact contents the child may write, so the parent can check every file on disk is
 * one of them (by digest) and never a mix.
 */

export { seededRandom } from './seededRandom';

/** Files the child rewrites, relative to the skill folder. */
export const CRASH_FILES = ['SKILL.md', 'references/big.md', 'scripts/run.py'] as const;
/** Versions per file (0 is the initial one). */
export const VERSIONS = 12;
/** Skill id used in the revision store. */
export const CRASH_SKILL_ID = 'workspace:crash-demo';

/** Version `k` of `file`: sizes from ~1 KB to ~250 KB so some writes take long enough to be interrupted. */
export function versionContent(file: string, k: number): string {
  const lines: string[] = [];
  if (file === 'SKILL.md') lines.push('---', 'name: crash-demo', `description: version ${k} of a skill rewritten while being killed`, '---');
  const count = file === 'references/big.md' ? 2000 + k * 400 : file === 'scripts/run.py' ? 5 + k : 40 + k * 30;
  for (let i = 0; i < count; i++) lines.push(`${file} v${k} line ${i}: ${'x'.repeat((i * 7 + k) % 60)}`);
  return lines.join('\n') + '\n';
}

/** Files of the k-th new skill folder the child creates with createDirAtomic. */
export function newSkillFiles(tag: string): { path: string; content: string }[] {
  return [
    { path: 'SKILL.md', content: `---\nname: ${tag}\ndescription: created atomically\n---\n${'body\n'.repeat(500)}` },
    { path: 'references/guide.md', content: `guide for ${tag}\n`.repeat(2000) },
    { path: 'scripts/a.py', content: `print("${tag}")\n` },
  ];
}
