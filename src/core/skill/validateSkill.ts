import { nodeFilesHost, type SkillFilesHost } from './filesHost';
import { applyMode, type Finding } from './findings';
import { plainlyValid } from './plainlyValid';
import { TextIndex } from './textIndex';
import type { ParsedSkillFile, SkillDiagnostic, ValidationMode } from './types';
import { validateBody } from './validateBody';
import { validateReferences, validateSecrets } from './validateFiles';
import { effectiveSkillName, FATAL_PARSE_RULES, validateFrontmatter } from './validateFrontmatter';

/** What to validate: a parsed SKILL.md and where it lives. */
export interface ValidateSkillInput {
  parsed: ParsedSkillFile;
  /** Name of the folder holding SKILL.md (the name must equal it). */
  folderName: string;
  /** Absolute path of the skill folder; needed for the reference and secret checks. */
  rootDir?: string;
  /** `SKILL.md` (default) or `skill.md`. */
  fileName?: string;
  /** File access for the reference and secret checks; defaults to the real file system. */
  host?: SkillFilesHost;
  /** A TextIndex of `parsed.text` to reuse (and to share with later {@link extractBodyReferences} calls). */
  index?: TextIndex;
}

/** How to validate. */
export interface ValidateSkillOptions {
  /** `lenient` (default): what hosts load is not an error. `strict`: exactly the reference validator. */
  mode?: ValidationMode;
  /** Check that relative links and `scripts/…` paths exist (needs rootDir). Default true. */
  checkReferences?: boolean;
  /** Scan every text file of the skill for credentials (needs rootDir). Default true. */
  scanSecrets?: boolean;
}

/** The outcome of validating one skill. */
export interface SkillValidation {
  /** True when no finding has severity `error` in the mode used. */
  valid: boolean;
  /** The name the skill is known by (frontmatter `name`, or the folder name when that is missing). */
  name: string;
  diagnostics: SkillDiagnostic[];
}

/**
 * Validates the content of a SKILL.md without any I/O: file shape, frontmatter fields and body size.
 * Fast enough to run on every keystroke.
 */
export function validateSkillContent(input: ValidateSkillInput, options: ValidateSkillOptions = {}): SkillValidation {
  const index = input.index ?? new TextIndex(input.parsed.text);
  const findings = contentFindings(input, index);
  return result(input, findings, options.mode ?? 'lenient');
}

/**
 * The diagnostics of {@link validateSkillContent}, with positional arguments and no result object: for
 * callers that check thousands of skills in a row (the registry's checker).
 */
export function validateSkillContentDiagnostics(parsed: ParsedSkillFile, folderName: string, fileName: string | undefined, mode: ValidationMode): SkillDiagnostic[] {
  if (plainlyValid(parsed, folderName, fileName)) return [];
  return applyMode(contentFindings({ parsed, folderName, fileName }, new TextIndex(parsed.text)), mode);
}

/** Validates a skill fully: {@link validateSkillContent} plus referenced files and the secret scan. */
export async function validateSkill(input: ValidateSkillInput, options: ValidateSkillOptions = {}): Promise<SkillValidation> {
  const index = input.index ?? new TextIndex(input.parsed.text);
  const findings = contentFindings(input, index);
  if (input.rootDir) {
    const host = input.host ?? nodeFilesHost;
    if (options.checkReferences !== false) await validateReferences(input.parsed, input.rootDir, host, index, findings);
    if (options.scanSecrets !== false) await validateSecrets(input.parsed, input.fileName ?? 'SKILL.md', input.rootDir, host, index, findings);
  }
  return result(input, findings, options.mode ?? 'lenient');
}

function contentFindings(input: Pick<ValidateSkillInput, 'parsed' | 'folderName' | 'fileName'>, index: TextIndex): Finding[] {
  const { parsed } = input;
  const findings: Finding[] = parsed.diagnostics.length === 0 ? [] : parsed.diagnostics.map((d) => ({ ...d, rule: d.rule as Finding['rule'] }));
  let fatal = false;
  for (const d of parsed.diagnostics) if (FATAL_PARSE_RULES.has(d.rule)) fatal = true;
  if (input.fileName && input.fileName !== 'SKILL.md') {
    findings.push({
      rule: 'skill-file-lowercase',
      message: `The skill file is named \`${input.fileName}\`; rename it to \`SKILL.md\`, the name every host looks for.`,
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      data: { expected: 'SKILL.md' },
    });
  }
  if (!fatal) validateFrontmatter(parsed, input.folderName, index, findings);
  validateBody(parsed, index, findings);
  return findings;
}

function result(input: ValidateSkillInput, findings: Finding[], mode: ValidationMode): SkillValidation {
  const diagnostics = applyMode(findings, mode);
  return {
    valid: !diagnostics.some((d) => d.severity === 'error'),
    name: effectiveSkillName(input.parsed.properties, input.folderName),
    diagnostics,
  };
}
