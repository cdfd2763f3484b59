import * as path from 'node:path';
import { readTextFile, resolvedEntries, type SkillsHost } from '../host/skillsHost';
import { asyncLocalDisk } from '../host/localDisk';
import { MAX_SKILL_FILE_BYTES } from './parseLimits';
import { parseSkillText } from './parseSkillText';
import type { ParsedSkillFile, SkillDiagnostic } from './skillTypes';
import { validateSkill, type SkillValidation, type ValidateSkillOptions } from './validateSkill';

/** A skill folder read from disk. */
export interface SkillDirRead {
  /** Absolute path of the skill folder. */
  dir: string;
  folderName: string;
  /** `SKILL.md`, or `skill.md` when only that exists; undefined when neither does. */
  fileName?: string;
  /** Absolute path of the skill file, when found. */
  file?: string;
  parsed?: ParsedSkillFile;
  /** Parse diagnostics, or `skill-file-missing` (severities as the parser reports them; validation re-levels them). */
  diagnostics: SkillDiagnostic[];
}

const ZERO = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** Finds SKILL.md in `dir` (or `skill.md` only when SKILL.md is absent), reads and parses it. */
export async function readSkillDir(dir: string, host: SkillsHost = asyncLocalDisk): Promise<SkillDirRead> {
  const abs = path.resolve(dir);
  const folderName = path.basename(abs);
  const entries = (await resolvedEntries(host, abs)) ?? [];
  // Exact names from the listing, so a case-insensitive file system cannot pass skill.md off as SKILL.md.
  const fileName = ['SKILL.md', 'skill.md'].find((n) => entries.some((e) => e.name === n && e.kind === 'file'));
  const text = fileName ? await readTextFile(host, path.join(abs, fileName), MAX_SKILL_FILE_BYTES) : undefined;
  const present = ['SKILL.md', 'skill.md'].find((n) => entries.some((e) => e.name === n));
  // There, but a FIFO, device or folder, too large, or binary: say so rather than "no SKILL.md".
  if (present && text === undefined) {
    return missingSkillFile(abs, folderName, `${path.join(abs, present)} cannot be read: it is not a regular file, is larger than ${MAX_SKILL_FILE_BYTES / 1024 / 1024} MiB, or is binary. Replace it with a UTF-8 text file.`);
  }
  if (!fileName || text === undefined) {
    return missingSkillFile(abs, folderName, `${abs} has no SKILL.md. Create SKILL.md with \`name: ${folderName}\` and a \`description:\` in its frontmatter.`);
  }
  const parsed = parseSkillText(text);
  return { dir: abs, folderName, fileName, file: path.join(abs, fileName), parsed, diagnostics: parsed.diagnostics };
}

/** The read of a folder whose SKILL.md is absent or unreadable: one `skill-file-missing` error saying which. */
function missingSkillFile(dir: string, folderName: string, message: string): SkillDirRead {
  return { dir, folderName, diagnostics: [{ rule: 'skill-file-missing', severity: 'error', message, range: ZERO, data: { expected: 'SKILL.md' } }] };
}

/** Reads and validates one skill folder. A folder without SKILL.md is invalid with `skill-file-missing`. */
export async function validateSkillDir(dir: string, options: ValidateSkillOptions = {}, host: SkillsHost = asyncLocalDisk): Promise<SkillValidation & { read: SkillDirRead }> {
  const read = await readSkillDir(dir, host);
  if (!read.parsed) {
    return { valid: false, name: read.folderName, diagnostics: read.diagnostics, read };
  }
  const v = await validateSkill({ parsed: read.parsed, folderName: read.folderName, rootDir: read.dir, fileName: read.fileName, host }, options);
  return { ...v, read };
}
