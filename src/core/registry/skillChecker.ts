import * as path from 'node:path';
import type { LoadedConfig } from '../skill/config/loadConfig';
import { parseSkillText } from '../skill/parseSkillText';
import type { ParsedSkillFile, SkillDiagnostic, ValidationMode } from '../skill/skillTypes';
import type { MaybePromise } from '../host/skillsHost';
import { FILE_SUFFIXES, SKILL_FILE_NAMES, type SkillFileIndex } from './skillFileNames';

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
  /** The lint configuration that applies to the skill's root (`.agent-skills.yaml`), when there is one. */
  config?: LoadedConfig;
}

/**
 * Turns a parsed skill into its diagnostics (the validator, in the registry's mode). `findsNoError`, when the checker
 * has it, tells cheaply that the checker would find no error in an input and would answer it synchronously: the
 * registry then knows the skill is usable without running the checker, and runs it when the skill's diagnostics are
 * first asked for ({@link checkLater}).
 */
export type SkillChecker = ((input: SkillCheckInput) => MaybePromise<SkillDiagnostic[]>) & { findsNoError?: (input: SkillCheckInput) => boolean };

/** Only the parser's own findings (file shape, YAML syntax): for callers that validate elsewhere. */
export const parseOnlyChecker: SkillChecker = ({ parsed }) => parsed.diagnostics;

/** The diagnostics of every skill without findings (frozen: the records share it). */
export const NO_DIAGNOSTICS = Object.freeze([]) as readonly SkillDiagnostic[] as SkillDiagnostic[];

/** True for a promise (or any thenable) answer of a host or checker that may answer either way. */
export function isPromise<T>(v: MaybePromise<T>): v is Promise<T> {
  return typeof (v as { then?: unknown } | null)?.then === 'function';
}

/**
 * The diagnostics of a skill whose check was put off ({@link SkillChecker.findsNoError}): the file's text, read when
 * the skill was loaded, parsed again and checked as the load would have checked it.
 */
export function checkLater(check: SkillChecker, text: string, skillDir: string, file: SkillFileIndex, mode: ValidationMode): SkillDiagnostic[] {
  const parsed = parseSkillText(text, true);
  const location = skillDir + FILE_SUFFIXES[file];
  let d: MaybePromise<SkillDiagnostic[]>;
  try {
    d = check({ parsed, skillDir, folderName: path.basename(skillDir), fileName: SKILL_FILE_NAMES[file], mode });
  } catch (e) {
    d = checkFailed(parsed, location, e);
  }
  if (isPromise(d)) d = checkFailed(parsed, location, new Error('the checker said it answers at once (findsNoError) but returned a promise'));
  return d.length === 0 ? NO_DIAGNOSTICS : d;
}

export function checkFailed(parsed: ParsedSkillFile, location: string, e: unknown): SkillDiagnostic[] {
  return [...parsed.diagnostics, failure('skill-check-failed', `Checking ${location} failed: ${(e as Error).message}. Report this as a bug.`)];
}

export function failure(rule: string, message: string): SkillDiagnostic {
  return { rule, severity: 'error', message, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } };
}
