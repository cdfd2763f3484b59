import * as path from 'node:path';
import { readTextFile, resolvedEntries, textOfRead, type SkillsHost } from '../host/skillsHost';
import { asyncLocalDisk } from '../host/localDisk';
import { capDiagnostics, partlyChecked } from './diagnosticLimits';
import { MAX_SKILL_FILE_BYTES, MAX_VALIDATED_CHARS } from './parseLimits';
import { TextIndex } from './textIndex';
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
  /** Set when only the first `maxChars` characters were read and parsed: the whole file's size in bytes. */
  partBytes?: number;
}

/**
 * Bytes read of a SKILL.md when only its first `maxChars` characters are wanted: a UTF-16 unit takes at most three
 * bytes of UTF-8, plus one character that the end of the read may cut.
 */
const prefixBytes = (maxChars: number) => maxChars * 3 + 4;

const ZERO = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/**
 * Finds SKILL.md in `dir` (or `skill.md` only when SKILL.md is absent), reads and parses it. `maxChars`: read and
 * parse at most that many characters (a longer file is neither read nor decoded whole; `partBytes` says its size).
 */
export async function readSkillDir(dir: string, host: SkillsHost = asyncLocalDisk, maxChars?: number): Promise<SkillDirRead> {
  const abs = path.resolve(dir);
  const folderName = path.basename(abs);
  const entries = (await resolvedEntries(host, abs)) ?? [];
  // Exact names from the listing, so a case-insensitive file system cannot pass skill.md off as SKILL.md.
  const fileName = ['SKILL.md', 'skill.md'].find((n) => entries.some((e) => e.name === n && e.kind === 'file'));
  const part = fileName && maxChars !== undefined ? await readPart(host, path.join(abs, fileName), maxChars) : undefined;
  const text = part ? part.text : fileName ? await readTextFile(host, path.join(abs, fileName), MAX_SKILL_FILE_BYTES) : undefined;
  const present = ['SKILL.md', 'skill.md'].find((n) => entries.some((e) => e.name === n));
  // There, but a FIFO, device or folder, too large, or binary: say so rather than "no SKILL.md".
  if (present && text === undefined) {
    return missingSkillFile(abs, folderName, `${path.join(abs, present)} cannot be read: it is not a regular file, is larger than ${MAX_SKILL_FILE_BYTES / 1024 / 1024} MiB, or is binary. Replace it with a UTF-8 text file.`);
  }
  if (!fileName || text === undefined) {
    return missingSkillFile(abs, folderName, `${abs} has no SKILL.md. Create SKILL.md with \`name: ${folderName}\` and a \`description:\` in its frontmatter.`);
  }
  const parsed = parseSkillText(text);
  return { dir: abs, folderName, fileName, file: path.join(abs, fileName), parsed, diagnostics: parsed.diagnostics, ...(part?.partBytes ? { partBytes: part.partBytes } : {}) };
}

/**
 * At most the first `maxChars` characters of `file`, reading only as many bytes as they can take; `partBytes` is the
 * file's size when there was more. Undefined text as {@link readTextFile} (missing, not regular, over the limit, binary).
 */
async function readPart(host: SkillsHost, file: string, maxChars: number): Promise<{ text?: string; partBytes?: number }> {
  try {
    const read = await host.readFile(file, { range: { offset: 0, length: prefixBytes(maxChars) } });
    if (!read) return {};
    if (read.size > MAX_SKILL_FILE_BYTES) return {};
    // A long SKILL.md is mostly ASCII: when its first maxChars bytes are maxChars characters ending on an ASCII byte
    // (a cut between characters), they are the part validated, decoded alone. That string is the text itself, not a
    // slice of a three times longer decoding that every scanner reads through (and that keeps the whole read alive).
    const bytes = read.bytes;
    if (bytes.length > maxChars && bytes[maxChars - 1] < 0x80) {
      const head = textOfRead(read, maxChars);
      if (head === undefined) return {};
      if (head.length === maxChars) return { text: head, partBytes: read.size };
    }
    const text = textOfRead(read);
    if (text === undefined || (read.bytes.length >= read.size && text.length <= maxChars)) return { text };
    return { text: text.slice(0, maxChars), partBytes: read.size };
  } catch {
    return {};
  }
}

/** The read of a folder whose SKILL.md is absent or unreadable: one `skill-file-missing` error saying which. */
function missingSkillFile(dir: string, folderName: string, message: string): SkillDirRead {
  return { dir, folderName, diagnostics: [{ rule: 'skill-file-missing', severity: 'error', message, range: ZERO, data: { expected: 'SKILL.md' } }] };
}

/** Rule id of the warning that a SKILL.md was validated only up to MAX_VALIDATED_CHARS. */
export const NOT_FULLY_CHECKED_RULE = 'file-not-fully-checked';

/** Reads and validates one skill folder. A folder without SKILL.md is invalid with `skill-file-missing`. */
export async function validateSkillDir(dir: string, options: ValidateSkillOptions = {}, host: SkillsHost = asyncLocalDisk): Promise<SkillValidation & { read: SkillDirRead }> {
  // A text past MAX_VALIDATED_CHARS is read and validated up to there (as the language server does), and says so.
  const read = await readSkillDir(dir, host, MAX_VALIDATED_CHARS);
  if (!read.parsed) {
    return { valid: false, name: read.folderName, diagnostics: read.diagnostics, read };
  }
  const parsed = read.parsed;
  const v = await validateSkill({ parsed, folderName: read.folderName, rootDir: read.dir, fileName: read.fileName, host }, options);
  if (read.partBytes !== undefined) {
    const end = new TextIndex(parsed.text).rangeOf(parsed.text.length, parsed.text.length);
    // First, and capped again with the rest, so the file's findings stay within the limits.
    v.diagnostics = capDiagnostics([partlyChecked(NOT_FULLY_CHECKED_RULE, read.partBytes, MAX_VALIDATED_CHARS, end), ...v.diagnostics]);
  }
  return { ...v, read };
}
