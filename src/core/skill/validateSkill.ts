import type { SkillsHost } from '../host/skillsHost';
import { asyncLocalDisk } from '../host/localDisk';
import { applyMode } from './applyMode';
import type { Finding } from './findings';
import { agentsFor } from './agentProfiles';
import { plainlyValid } from './plainlyValid';
import { ruleOption, type RuleConfig } from './ruleConfig';
import { checkBody, DEFAULT_BODY_LIMITS, type BodyLimits } from './rules/body';
import { FATAL_PARSE_RULES } from './rules/fileShape';
import { effectiveSkillName } from './rules/name';
import { REFERENCE_MAX_TOKENS } from './rules/references';
import { checkInvisible } from './rules/unicode';
import { capDiagnostics } from './diagnosticLimits';
import { applySuppressions } from './suppressions';
import { TextIndex } from './textIndex';
import type { ParsedSkillFile, SkillDiagnostic, ValidationMode } from './skillTypes';
import { validateReferences, validateSecrets } from './validateFiles';
import { validateFrontmatter } from './validateFrontmatter';

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
  host?: SkillsHost;
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
  /** Report files nothing mentions (needs rootDir and scanSecrets, which reads every text file). Default true. */
  checkUnreferenced?: boolean;
  /** Rule levels and options from the configuration (`.agent-skills.yaml`, settings, `--config`). */
  config?: RuleConfig;
  /**
   * Run the rules over the text of SKILL.md itself (its content, its secrets, its portability). Default true; false
   * when only the findings about the skill's other files are wanted (the language server's folder pass, whose SKILL.md
   * findings the check of each version already has).
   */
  skillFileRules?: boolean;
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
 * Validates the content of a SKILL.md without any I/O: file shape, frontmatter fields and the body.
 * Fast enough to run on every keystroke.
 */
export function validateSkillContent(input: ValidateSkillInput, options: ValidateSkillOptions = {}): SkillValidation {
  const index = input.index ?? new TextIndex(input.parsed.text);
  const findings = contentFindings(input, index, options.config);
  return result(input, findings, options);
}

/**
 * The diagnostics of {@link validateSkillContent}, with positional arguments and no result object: for
 * callers that check thousands of skills in a row (the registry's checker).
 */
export function validateSkillContentDiagnostics(parsed: ParsedSkillFile, folderName: string, fileName: string | undefined, mode: ValidationMode, config?: RuleConfig): SkillDiagnostic[] {
  if (!config && plainlyValid(parsed, folderName, fileName)) return [];
  const input = { parsed, folderName, fileName };
  return result(input, contentFindings(input, new TextIndex(parsed.text), config), { mode, config }).diagnostics;
}

/** Validates a skill fully: {@link validateSkillContent} plus referenced files and the secret scan. */
export async function validateSkill(input: ValidateSkillInput, options: ValidateSkillOptions = {}): Promise<SkillValidation> {
  const index = input.index ?? new TextIndex(input.parsed.text);
  const ownText = options.skillFileRules !== false;
  const findings = ownText ? contentFindings(input, index, options.config) : [];
  if (input.rootDir) {
    const host = input.host ?? asyncLocalDisk;
    const limits = { referenceMaxTokens: ruleOption(options.config, 'reference-too-many-tokens', 'maxTokens', REFERENCE_MAX_TOKENS) };
    const agents = agentsFor(options.config?.host);
    if (options.checkReferences !== false) await validateReferences(input.parsed, input.rootDir, host, index, findings, limits, agents);
    if (options.scanSecrets !== false) await validateSecrets(input.parsed, input.fileName ?? 'SKILL.md', input.rootDir, host, index, findings, options.checkUnreferenced !== false, ownText);
  }
  return result(input, findings, options);
}

function bodyLimits(config: RuleConfig | undefined): BodyLimits {
  if (!config) return DEFAULT_BODY_LIMITS;
  return {
    maxLines: ruleOption(config, 'body-too-long', 'maxLines', DEFAULT_BODY_LIMITS.maxLines),
    maxTokens: ruleOption(config, 'body-too-many-tokens', 'maxTokens', DEFAULT_BODY_LIMITS.maxTokens),
    encodedMin: ruleOption(config, 'encoded-payload', 'minLength', DEFAULT_BODY_LIMITS.encodedMin),
  };
}

function contentFindings(input: Pick<ValidateSkillInput, 'parsed' | 'folderName' | 'fileName'>, index: TextIndex, config: RuleConfig | undefined): Finding[] {
  const { parsed } = input;
  const findings: Finding[] = parsed.diagnostics.length === 0 ? [] : parsed.diagnostics.map((d) => ({ ...d }));
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
  if (!fatal) validateFrontmatter(parsed, input.folderName, index, findings, agentsFor(config?.host));
  checkBody(parsed, index, bodyLimits(config), findings);
  checkInvisible(parsed.text, index, findings);
  return findings;
}

function result(input: Pick<ValidateSkillInput, 'parsed' | 'folderName'>, findings: Finding[], options: ValidateSkillOptions): SkillValidation {
  const mode = options.mode ?? 'lenient';
  const fm = input.parsed.frontmatter;
  const diagnostics = applySuppressions(applyMode(findings, mode, [], options.config), input.parsed.text, mode, fm && fm.closeLine >= 0 ? fm.closeLine : -1);
  return {
    valid: !diagnostics.some((d) => d.severity === 'error'),
    name: effectiveSkillName(input.parsed.properties, input.folderName),
    // Bounded per file after the verdict, which counts every finding.
    diagnostics: capDiagnostics(diagnostics),
  };
}
