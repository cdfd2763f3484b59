import { hash } from 'node:crypto';
import * as path from 'node:path';
import { parseSkillText } from '../skill/parseSkillText';
import { effectiveSkillName } from '../skill/validateFrontmatter';
import type { ParsedSkillFile, SkillDiagnostic, ValidationMode } from '../skill/types';
import type { FileStamp, MaybePromise, RegistryHost } from './registryHost';
import type { SkillRoot } from './types';

/** The file names that make a folder a skill, in order of preference (`skill.md` only when SKILL.md is absent). */
export const SKILL_FILE_NAMES = ['SKILL.md', 'skill.md'] as const;

/** What a checker gets to judge one skill. */
export interface SkillCheckInput {
  parsed: ParsedSkillFile;
  /** Absolute path of the skill folder. */
  skillDir: string;
  /** Name of the skill folder (the last segment of `skillDir`). */
  folderName: string;
  /** `SKILL.md` or `skill.md`. */
  fileName: string;
  mode: ValidationMode;
}

/** Turns a parsed skill into its diagnostics (the validator, in the registry's mode). */
export type SkillChecker = (input: SkillCheckInput) => MaybePromise<SkillDiagnostic[]>;

/** Only the parser's own findings (file shape, YAML syntax): for callers that validate elsewhere. */
export const parseOnlyChecker: SkillChecker = ({ parsed }) => parsed.diagnostics;

/** One skill as read from disk, before precedence decides its status. */
export interface LoadedSkill {
  root: SkillRoot;
  rootDir: string;
  location: string;
  fileName: string;
  stamp: FileStamp;
  name: string;
  description: string;
  properties: Record<string, unknown>;
  digest: string;
  diagnostics: SkillDiagnostic[];
  broken: boolean;
}

/**
 * Reads and checks the skill in `skillDir`, or returns `undefined` when the folder holds neither
 * SKILL.md nor skill.md. A file that cannot be read or parsed still gives a (broken) skill.
 */
export async function loadSkill(host: RegistryHost, root: SkillRoot, skillDir: string, mode: ValidationMode, check: SkillChecker): Promise<LoadedSkill | undefined> {
  const folderName = path.basename(skillDir);
  for (const fileName of SKILL_FILE_NAMES) {
    // skillDir is already absolute and normalized, and fileName has no separator: no need for path.join.
    const location = skillDir + path.sep + fileName;
    let read;
    try {
      read = await host.readFile(location);
    } catch (e) {
      return unreadable(root, skillDir, location, fileName, folderName, e);
    }
    if (!read) continue;
    const bytes = Buffer.isBuffer(read.bytes) ? read.bytes : Buffer.from(read.bytes.buffer, read.bytes.byteOffset, read.bytes.byteLength);
    const text = bytes.toString('utf8');
    const parsed = parseSkillText(text);
    let diagnostics: SkillDiagnostic[];
    try {
      diagnostics = await check({ parsed, skillDir, folderName, fileName, mode });
    } catch (e) {
      diagnostics = [...parsed.diagnostics, failure('skill-check-failed', `Checking ${location} failed: ${(e as Error).message}. Report this as a bug.`)];
    }
    const props = parsed.properties;
    const name = effectiveSkillName(props, folderName);
    return {
      root,
      rootDir: skillDir,
      location,
      fileName,
      stamp: { mtimeMs: read.mtimeMs, size: read.size },
      name,
      description: typeof props.description === 'string' ? props.description : '',
      properties: props,
      digest: `sha256:${hash('sha256', bytes, 'hex')}`,
      diagnostics,
      broken: diagnostics.some((d) => d.severity === 'error'),
    };
  }
  return undefined;
}

function unreadable(root: SkillRoot, skillDir: string, location: string, fileName: string, folderName: string, e: unknown): LoadedSkill {
  const code = (e as NodeJS.ErrnoException).code ?? 'error';
  return {
    root,
    rootDir: skillDir,
    location,
    fileName,
    stamp: { mtimeMs: -1, size: -1 },
    name: folderName,
    description: '',
    properties: {},
    digest: '',
    diagnostics: [failure('skill-unreadable', `Cannot read ${location} (${code}: ${(e as Error).message}). Check the file's permissions.`)],
    broken: true,
  };
}

function failure(rule: string, message: string): SkillDiagnostic {
  return { rule, severity: 'error', message, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } };
}
