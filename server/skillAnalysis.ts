import * as path from 'node:path';
import type { TextIndex } from '../src/core/skill';
import type { ParsedSkillFile, SkillDiagnostic, ValidationMode } from '../src/core/skill';
import { partlyChecked } from '../src/core/skill/diagnosticLimits';
import { MAX_VALIDATED_CHARS } from '../src/core/skill/parseLimits';
import { runCore, type CoreContext, type SkillReference } from './skillCore';
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
  /** Every finding of the core in the chosen mode, before any deferral to the built-in validator. */
  problems: SkillDiagnostic[];
  references: SkillReference[];
  /** True when the text was cut to MAX_ANALYZED_CHARS before analysis. */
  truncated: boolean;
}

/** Rule id of the server's own notice that a file was too large to check completely. */
export const TRUNCATED_RULE = 'server-file-truncated';

export async function analyzeSkill(uri: string, version: number | null, fullText: string, mode: ValidationMode, ctx: CoreContext): Promise<SkillAnalysis> {
  const truncated = fullText.length > MAX_ANALYZED_CHARS;
  const text = truncated ? fullText.slice(0, MAX_ANALYZED_CHARS) : fullText;
  const filePath = uriToPath(uri);
  const skillDir = filePath ? path.dirname(filePath) : undefined;
  const core = await runCore(text, skillDir, mode, ctx);
  const index = core.index;
  const problems = [...core.problems];
  if (truncated) {
    problems.push(partlyChecked(TRUNCATED_RULE, fullText.length, MAX_ANALYZED_CHARS, index.rangeOf(text.length, text.length)));
  }
  return {
    uri,
    version,
    filePath,
    skillDir,
    folderName: skillDir ? path.basename(skillDir) : undefined,
    text,
    index,
    parsed: core.parsed,
    problems,
    references: core.references,
    truncated,
  };
}
