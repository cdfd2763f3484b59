import * as path from 'node:path';

/** The file names that make a folder a skill, in order of preference (`skill.md` only when SKILL.md is absent). */
export const SKILL_FILE_NAMES = ['SKILL.md', 'skill.md'] as const;

/** `/SKILL.md` and `/skill.md` with the platform's separator. */
export const FILE_SUFFIXES = SKILL_FILE_NAMES.map((n) => path.sep + n);

/** Which of {@link SKILL_FILE_NAMES} a skill was read from: its position in that list. */
export type SkillFileIndex = 0 | 1;
