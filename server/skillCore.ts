/**
 * The one place the server calls the core validator. Every rule, limit and piece of field
 * documentation comes from src/core; this file only adapts shapes.
 */
import * as path from 'node:path';
import { extractBodyReferences, FIELDS, getRule, parseSkillText, TextIndex, validateSkill } from '../src/core/skill';
import { referenceFolders } from '../src/core/skill/bodyReferences';
import { referenceExtraction } from '../src/core/skill/validateFiles';
import type { FieldValueType, ParsedSkillFile, Range, RuleConfig, SkillDiagnostic, ValidationMode } from '../src/core/skill';
import { remembered, resolvedEntriesNow, type SkillsHost, type SyncSkillsHost } from '../src/core/host/skillsHost';
import { estimateTokens } from '../src/core/skill/estimateTokens';
import { codePointLength } from '../src/core/skill/findings';
import { BODY_MAX_TOKENS } from '../src/core/skill/rules/body';
import { COMPATIBILITY_MAX, DESCRIPTION_MAX, NAME_MAX } from '../src/core/skill/validateFrontmatter';

/** A relative path written in the body (Markdown link, inline code or prose). */
export interface SkillReference {
  /** The path as written, without any `#fragment`, percent-decoded for links. */
  target: string;
  /** Where the path sits in SKILL.md. */
  range: Range;
}

/** Everything the core says about one SKILL.md text. */
export interface CoreResult {
  parsed: ParsedSkillFile;
  index: TextIndex;
  problems: SkillDiagnostic[];
  references: SkillReference[];
}

/** File access for one validation: the cached host, and findings about the skill's other files. */
export interface CoreContext {
  host: SkillsHost;
  /**
   * Findings about the skill's other files (the secret scan), computed once per folder state by
   * `folderFindings` and reused on every keystroke.
   */
  folderFindings(skillDir: string, parsed: ParsedSkillFile, mode: ValidationMode, config: RuleConfig): Promise<SkillDiagnostic[]>;
  /**
   * The rule configuration for a skill folder (the nearest `.agent-skills.yaml` with the
   * `agentSkills.validation.rules` setting over it), or `excluded` when the configuration excludes it.
   */
  configFor(skillDir: string | undefined): Promise<RuleConfig | 'excluded'>;
}

/** What one SKILL.md text holds before any rule runs: the parse, the line index and the body's references. */
export type CoreSyntax = Omit<CoreResult, 'problems'>;

/**
 * Parses one SKILL.md text and finds its body references: what hover, links and symbols need, no rule run. `folders`:
 * the skill's top-level folders ({@link referenceFolders}). The references are extracted as the reference rules extract
 * them, on the index the rules are given, so the check of this text reuses them instead of scanning the body again.
 */
export function readSyntax(text: string, folders: readonly string[] = []): CoreSyntax {
  // The YAML parser only when the frontmatter needs it: simple `key: value` lines take the core's fast path (same result).
  const parsed = parseSkillText(text);
  const index = new TextIndex(text);
  const references = extractBodyReferences(parsed, referenceExtraction(folders, index)).map((r) => ({ target: r.path, range: r.range }));
  return { parsed, index, references };
}

/** The top-level folders of the skill in `skillDir` whose bare paths count as references, read at once through `fsys`. */
export function skillFolders(fsys: SyncSkillsHost, skillDir: string | undefined): string[] {
  return skillDir ? referenceFolders(resolvedEntriesNow(fsys, skillDir) ?? []) : [];
}

/**
 * Validates one parsed SKILL.md text of the skill in `skillDir` (undefined for unsaved documents) with the core
 * validator. The text is checked on every call; the skill's other files are read through `ctx`, which caches them
 * until they change.
 */
export async function checkSyntax(syntax: CoreSyntax, skillDir: string | undefined, mode: ValidationMode, ctx: CoreContext): Promise<SkillDiagnostic[]> {
  const { parsed, index } = syntax;
  const config = await ctx.configFor(skillDir);
  if (config === 'excluded') return [];
  if (!skillDir) {
    const named = typeof parsed.properties.name === 'string' ? parsed.properties.name : '';
    return (await validateSkill({ parsed, folderName: named, index }, { mode, config })).diagnostics;
  }
  // SKILL.md itself (references, its own secrets) is checked now; other files' text comes from folderFindings.
  const h = ctx.host;
  const ownHost: SkillsHost = {
    readDirectory: (p) => h.readDirectory(p),
    stat: (p) => h.stat(p),
    kind: (p) => h.kind(p),
    realPath: (p) => h.realPath(p),
    readFile: () => undefined,
    // Walks and listings only (this host reads no file's text): what the cached host keeps, this one may reuse.
    remember: (root, name, input, compute) => remembered(h, root, name, input, compute),
  };
  // The index is shared with the reference extraction of readSyntax, so line starts and fenced blocks are found once.
  const input = { parsed, folderName: path.basename(skillDir), rootDir: skillDir, host: ownHost, index };
  // The unreferenced-file rule needs every file's text, which only the folder pass reads.
  const [own, others] = await Promise.all([validateSkill(input, { mode, config, checkUnreferenced: false }), ctx.folderFindings(skillDir, parsed, mode, config)]);
  return [...own.diagnostics, ...others];
}

/** Findings of the core about the files of a skill other than SKILL.md (e.g. credentials in scripts). */
export async function otherFileFindings(skillDir: string, parsed: ParsedSkillFile, mode: ValidationMode, host: SkillsHost, config?: RuleConfig): Promise<SkillDiagnostic[]> {
  const v = await validateSkill({ parsed, folderName: path.basename(skillDir), rootDir: skillDir, host }, { mode, checkReferences: false, config, skillFileRules: false });
  return v.diagnostics.filter((d) => d.file !== undefined && d.file !== 'SKILL.md');
}

/** Estimated model tokens of a text. */
export function estimateTokenCount(text: string): number {
  return estimateTokens(text);
}

/** Recommended maximum of estimated tokens for the body. */
export const BODY_TOKEN_BUDGET = BODY_MAX_TOKENS;

/** Rule ids of the four problems VS Code's built-in skill validator also reports. */
export const BUILTIN_VALIDATOR_RULES: ReadonlySet<string> = new Set([
  'name-invalid-chars',
  'name-uppercase',
  'description-missing',
  'name-folder-mismatch',
  'reference-missing',
]);

/** What the core documents about one frontmatter field. */
export interface FieldDoc {
  key: string;
  /** Markdown: meaning of the field. */
  doc: string;
  required: boolean;
  /** Maximum length in characters, when the core sets one. */
  maxChars?: number;
  /** True when the field is part of the open standard (allowed in strict mode). */
  standard: boolean;
  /** Shape of the value, from the core's field catalog. */
  type: FieldValueType;
}

const MAX_CHARS: Readonly<Record<string, number>> = { name: NAME_MAX, description: DESCRIPTION_MAX, compatibility: COMPATIBILITY_MAX };

/** Documentation of every frontmatter field the core knows, in the core's order. */
export function knownFields(): FieldDoc[] {
  return FIELDS.map((f) => ({
    key: f.key,
    doc: f.standard ? f.doc : `${f.doc} (Defined by ${f.hosts.join(', ')}.)`,
    // A field is required exactly when the core has a rule for it being missing.
    required: getRule(`${f.key}-missing`) !== undefined,
    maxChars: MAX_CHARS[f.key],
    standard: f.standard,
    type: f.type,
  }));
}

/** Length of a value as the core counts it (code points). */
export function charCount(value: string): number {
  return codePointLength(value);
}

/** Which core rules each quick fix answers. Rule ids are the core's; this only groups them. */
export const FIX_RULES = {
  nameToFolder: new Set(['name-folder-mismatch', 'name-invalid-chars', 'name-uppercase', 'name-empty', 'name-hyphen-edge', 'name-consecutive-hyphens']),
  // Only when uppercase is the name's one problem: with others the core reports one finding whose expected name mends them all.
  lowercaseName: new Set(['name-uppercase']),
  quoteColon: new Set(['yaml-syntax']),
  moveToMetadata: new Set(['field-unknown', 'field-nonstandard']),
  shortenDescription: new Set(['description-too-long']),
  addName: new Set(['name-missing']),
  addDescription: new Set(['description-missing']),
  addFrontmatter: new Set(['frontmatter-missing']),
} as const;
