import * as path from 'node:path';
import type { TextIndex } from '../src/core/skill';
import type { ParsedSkillFile, SkillDiagnostic, ValidationMode } from '../src/core/skill';
import { partlyChecked } from '../src/core/skill/diagnosticLimits';
import { MAX_VALIDATED_CHARS } from '../src/core/skill/parseLimits';
import { checkSyntax, readSyntax, skillFolders, type CoreContext, type SkillReference } from './skillCore';
import type { SyncSkillsHost } from '../src/core/host/skillsHost';
import { uriToPath } from './uris';

/** Texts longer than this are checked only up to this length, so a huge file cannot stall the server (as in `validate`). */
export const MAX_ANALYZED_CHARS = MAX_VALIDATED_CHARS;

/** One SKILL.md as the server sees it: the text, where its skill folder is, and what the core found. */
export interface SkillAnalysis {
  uri: string;
  /** Document version for open files; null for files read from disk. */
  version: number | null;
  /** Absolute path of SKILL.md, when the URI is a file. */
  filePath?: string;
  /** The skill folder (the folder holding SKILL.md). */
  skillDir?: string;
  /** Name of the skill folder, the expected `name`. */
  folderName?: string;
  text: string;
  index: TextIndex;
  parsed: ParsedSkillFile;
  /** Every finding of the core in the chosen mode, before any deferral to the built-in validator (none before the rules ran: see `checked`). */
  problems: SkillDiagnostic[];
  /** False for the text alone ({@link readSkill}): parsed and indexed, no rule run yet. */
  checked: boolean;
  references: SkillReference[];
  /** True when the text was cut to MAX_ANALYZED_CHARS before analysis. */
  truncated: boolean;
  /** Length of the whole text, before any cut. */
  fullLength: number;
}

/** Rule id of the server's own notice that a file was too large to check completely. */
export const TRUNCATED_RULE = 'server-file-truncated';

/**
 * Where a SKILL.md lives, as the server needs it on every read of its text: its path, its skill folder, and the folder's
 * top-level folders (whose bare paths are references). It depends on the URI and the folder's listing only, so an open
 * document keeps it between versions until a file of the workspace changes.
 */
export interface SkillPlace {
  filePath?: string;
  skillDir?: string;
  folderName?: string;
  /** The skill's top-level folders ({@link skillFolders}); none without a file system. */
  folders: readonly string[];
}

/** The place of the SKILL.md at `uri`; `fsys` lists its folder (without it, no folders). */
export function placeOf(uri: string, fsys?: SyncSkillsHost): SkillPlace {
  const filePath = uriToPath(uri);
  const skillDir = filePath ? path.dirname(filePath) : undefined;
  return { filePath, skillDir, folderName: skillDir ? path.basename(skillDir) : undefined, folders: fsys ? skillFolders(fsys, skillDir) : [] };
}

/**
 * The text alone, parsed and indexed with its references, no rule run: what hover, links and symbols need. Cheap
 * next to the rules, so a request never waits for a validation. `place` lists the skill's folders (whose bare paths
 * are references), so the references are the ones the rules then reuse.
 */
export function readSkill(uri: string, version: number | null, fullText: string, place: SkillPlace = placeOf(uri)): SkillAnalysis {
  const truncated = fullText.length > MAX_ANALYZED_CHARS;
  const text = truncated ? fullText.slice(0, MAX_ANALYZED_CHARS) : fullText;
  const syntax = readSyntax(text, place.folders);
  return {
    uri,
    version,
    filePath: place.filePath,
    skillDir: place.skillDir,
    folderName: place.folderName,
    text,
    index: syntax.index,
    parsed: syntax.parsed,
    problems: [],
    checked: false,
    references: syntax.references,
    truncated,
    fullLength: fullText.length,
  };
}

/** Runs the core's rules over a read skill; `undefined` when `stillWanted` says no before they start. */
export async function checkSkill(read: SkillAnalysis, mode: ValidationMode, ctx: CoreContext, stillWanted: () => boolean = () => true): Promise<SkillAnalysis | undefined> {
  if (!stillWanted()) return undefined;
  const problems = await checkSyntax(read, read.skillDir, mode, ctx);
  if (read.truncated) {
    problems.push(partlyChecked(TRUNCATED_RULE, read.fullLength, MAX_ANALYZED_CHARS, read.index.rangeOf(read.text.length, read.text.length)));
  }
  return { ...read, problems, checked: true };
}

/** Reads and checks one SKILL.md text ({@link readSkill}, then {@link checkSkill}). */
export async function analyzeSkill(uri: string, version: number | null, fullText: string, mode: ValidationMode, ctx: CoreContext, fsys?: SyncSkillsHost): Promise<SkillAnalysis> {
  return (await checkSkill(readSkill(uri, version, fullText, placeOf(uri, fsys)), mode, ctx))!;
}
