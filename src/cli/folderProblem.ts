import * as fs from 'node:fs';

/**
 * Why the folder at `abs` cannot be read, in words that name it and say what to do, or undefined when it can: it
 * does not exist, it is not a folder, or this user may not list it. `wanted` says what the folder should be
 * (e.g. "a folder of skills (<folder>/<skill-name>/SKILL.md)"). Asks the file system about the folder itself only,
 * never lists it (a root of 10,000 skills costs one stat and one access check).
 */
export function folderProblem(abs: string, wanted: string): string | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(abs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return `${abs} does not exist. Create it, or give ${wanted}.`;
    if (code === 'EACCES') return `${abs} cannot be reached: this user may not open a folder above it (permission denied). Give ${wanted} this user can read.`;
    return `${abs} cannot be read (${code ?? (e as Error).message}). Give ${wanted}.`;
  }
  if (!stat.isDirectory()) return `${abs} is a file, not a folder. Give ${wanted}.`;
  try {
    fs.accessSync(abs, fs.constants.R_OK | fs.constants.X_OK);
  } catch {
    return `${abs} cannot be read by this user (permission denied). Let it read the folder (chmod u+rx, or ask its owner), or give another ${wanted.replace(/^an? /, '')}.`;
  }
  return undefined;
}
