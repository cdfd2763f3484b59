import type { Severity, ValidationMode } from './types';

/** A rule's level in one mode: a severity, or `off` when the mode does not check it. */
export type RuleLevel = Severity | 'off';

/** One validation rule. The language server, the CLI and the docs read this table; none restates a rule. */
export interface RuleInfo {
  id: string;
  /** Level in `strict` mode: exactly the agentskills.io reference validator (`skills-ref`); extra checks never fail it. */
  strict: RuleLevel;
  /** Level in `lenient` mode (the default): what VS Code, Claude Code and Codex load is never an error. */
  lenient: RuleLevel;
  /** One line, for tables and completion lists. */
  description: string;
  /** Longer Markdown for hovers: why the rule exists and how to fix a finding. */
  doc: string;
}

const rule = (id: string, strict: RuleLevel, lenient: RuleLevel, description: string, doc: string): RuleInfo => ({ id, strict, lenient, description, doc });

/**
 * Every rule, in the order findings are usually reported. Extra checks that the reference does not make
 * (XML tags, reserved words, body size, references, secrets, field types) are warnings in both modes so
 * that `--strict` validity stays exactly the reference's.
 */
export const RULES = [
  // File shape (reported by the parser).
  rule('skill-file-missing', 'error', 'error', 'The skill folder has no SKILL.md.',
    'A skill is a folder with a `SKILL.md` file at its root (`skill.md` is accepted when `SKILL.md` is absent). Create `SKILL.md` with `name` and `description` frontmatter.'),
  rule('skill-file-lowercase', 'off', 'info', 'The skill file is named skill.md instead of SKILL.md.',
    'The reference and most hosts accept `skill.md` only as a fallback; some hosts look for `SKILL.md` only. Rename the file to `SKILL.md`.'),
  rule('file-bom', 'error', 'warning', 'SKILL.md starts with a byte order mark.',
    'The file must start with `---`. A BOM is invisible in most editors; hosts that strip it still load the skill, but the reference rejects it. Save the file as UTF-8 without BOM.'),
  rule('frontmatter-leading-blank', 'error', 'warning', 'Blank lines come before the opening `---`.',
    'The frontmatter must be the very first thing in the file. Delete the blank lines above `---`.'),
  rule('frontmatter-missing', 'error', 'error', 'SKILL.md does not start with YAML frontmatter.',
    'Start the file with a `---` line, then `name:` and `description:` fields, then a closing `---` line. Without frontmatter a skill has no description, so no host can offer it.'),
  rule('frontmatter-unclosed', 'error', 'error', 'The frontmatter is never closed with `---`.',
    'Add a `---` line after the last frontmatter field, before the Markdown body.'),
  rule('yaml-syntax', 'error', 'error', 'The frontmatter is not valid YAML.',
    'Hosts cannot read any field of a skill whose frontmatter does not parse. Quote values that contain `: `, indent with spaces, and write each key once.'),
  rule('yaml-strict-subset', 'error', 'off', 'The frontmatter uses YAML the reference parser refuses (flow `[...]`/`{...}`, anchors, aliases, tags).',
    'The reference validator reads frontmatter with a strict YAML subset: no flow collections, no `&anchors`/`*aliases`, no `!tags`. Write lists as `- item` lines and mappings as indented `key: value` lines.'),
  rule('frontmatter-not-mapping', 'error', 'error', 'The frontmatter is not a mapping of `key: value` lines.',
    'The frontmatter must be a YAML mapping such as `name: my-skill`, not a list or a single value.'),
  // Fields.
  rule('field-nonstandard', 'error', 'info', 'A field some hosts define but the Agent Skills specification does not.',
    'Fields such as `argument-hint`, `user-invocable`, `disable-model-invocation` (VS Code, Claude Code) or `context`, `model`, `hooks` (Claude Code) work in the hosts that define them and are ignored elsewhere. The specification allows only `name`, `description`, `license`, `compatibility`, `metadata` and `allowed-tools`; move other data under `metadata` for portability.'),
  rule('field-unknown', 'error', 'warning', 'A field no known host defines.',
    'Unknown fields are ignored by hosts, and the reference rejects them. Check the spelling, or move the data under `metadata`.'),
  rule('field-type', 'warning', 'warning', 'A field has a value of the wrong type (e.g. a list where a string belongs).',
    'Hosts ignore or misread a field of the wrong type, e.g. `license` must be a string and `user-invocable` must be `true` or `false`.'),
  rule('name-missing', 'error', 'warning', 'The required `name` field is missing.',
    'Every skill needs `name`. Claude Code and VS Code fall back to the folder name, so lenient mode loads the skill under its folder name; add `name: <folder-name>`.'),
  rule('name-empty', 'error', 'warning', '`name` is empty or not a string.',
    '`name` must be a non-empty string. Lenient mode loads the skill under its folder name; set `name: <folder-name>`.'),
  rule('name-too-long', 'error', 'warning', '`name` is longer than 64 characters.',
    'A name has at most 64 characters (Unicode code points, after NFKC normalization). Shorten it and rename the folder to match.'),
  rule('name-uppercase', 'error', 'warning', '`name` contains uppercase letters.',
    'Names are lowercase. Use the lowercase form and rename the folder to match.'),
  rule('name-hyphen-edge', 'error', 'warning', '`name` starts or ends with a hyphen.',
    'Names must not start or end with `-`. Remove the leading or trailing hyphen.'),
  rule('name-consecutive-hyphens', 'error', 'warning', '`name` contains `--`.',
    'Names must not contain consecutive hyphens. Use a single `-` between words.'),
  rule('name-invalid-chars', 'error', 'warning', '`name` contains characters other than letters, digits and hyphens.',
    'Names may contain only Unicode letters and digits (a lowercase Chinese or Russian name is valid) and hyphens. Replace spaces, underscores and punctuation with `-`.'),
  rule('name-folder-mismatch', 'error', 'warning', '`name` differs from the skill folder name.',
    'The name must equal the folder name (both NFKC-normalized). Hosts that key skills by folder may show one name and load another. Rename the folder or change `name`.'),
  rule('name-reserved-word', 'warning', 'warning', '`name` contains a reserved word (`anthropic`, `claude`).',
    'Anthropic\'s skill guidelines reserve these words; the reference accepts them, but uploads to Anthropic\'s API may be rejected. Choose a name without them.'),
  rule('description-missing', 'error', 'error', 'The required `description` field is missing.',
    'The description is all a model sees before it activates a skill: without it no host can offer the skill. Add `description:` saying what the skill does and when to use it.'),
  rule('description-empty', 'error', 'error', '`description` is empty or not a string.',
    '`description` must be a non-empty string saying what the skill does and when to use it.'),
  rule('description-too-long', 'error', 'warning', '`description` is longer than 1024 characters.',
    'Descriptions have at most 1024 characters; longer ones are loaded by Claude Code but may be truncated or rejected elsewhere. Shorten it and move detail into the body.'),
  rule('xml-tags', 'warning', 'warning', '`name` or `description` contains XML tags.',
    'Skill metadata is placed inside XML in the system prompt; tags in it can break or hijack that prompt. Remove the tags or describe them in words.'),
  rule('compatibility-not-string', 'error', 'warning', '`compatibility` is not a string.',
    '`compatibility` is one string of at most 500 characters describing environment requirements, e.g. `Requires git and network access`.'),
  rule('compatibility-too-long', 'error', 'warning', '`compatibility` is longer than 500 characters.',
    'Keep `compatibility` to at most 500 characters; move details into the body.'),
  rule('allowed-tools-invalid', 'warning', 'warning', '`allowed-tools` is not a tool string or a list of tool names.',
    '`allowed-tools` is a space-separated string (`Bash(git:*) Read`), a comma-separated string (`Read, Grep`) or a YAML list of tool names.'),
  rule('metadata-invalid', 'warning', 'warning', '`metadata` is not a mapping of string keys to string values.',
    '`metadata` maps string keys to string values, e.g. `author: example-org` and `version: "1.0"`. Nested mappings and lists are not portable.'),
  // Body.
  rule('body-too-long', 'warning', 'warning', 'The body has more than 500 lines.',
    'The whole body is loaded when the skill activates. Keep SKILL.md under 500 lines and move detail into files under `references/`.'),
  rule('body-too-many-tokens', 'warning', 'warning', 'The body is about 5,000 tokens or more.',
    'The specification recommends under 5,000 tokens of instructions (estimated here as characters / 4). Move detail into referenced files.'),
  rule('reference-missing', 'warning', 'warning', 'A relative link or `scripts/…`-style path in the body points to a missing file.',
    'The model will try to read or run the file and fail. Fix the path (relative to the skill folder) or add the file.'),
  rule('reference-outside', 'warning', 'warning', 'A relative link or path in the body points outside the skill folder.',
    'A skill must be self-contained: files outside its folder are missing when it is installed elsewhere, and the runtime will not load them. Copy the file into the skill.'),
  // Security.
  rule('secret-detected', 'warning', 'warning', 'A file of the skill appears to contain a credential (API key, token, private key, password).',
    'Skills must not contain credentials: they are shared and loaded into model context. Remove the value, rotate it, and read it from an environment variable instead.'),
] as const satisfies readonly RuleInfo[];

/** Every rule id. */
export type RuleId = (typeof RULES)[number]['id'];

const BY_ID: ReadonlyMap<string, RuleInfo> = new Map(RULES.map((r) => [r.id, r]));

/** The rule with this id, or undefined. */
export function getRule(id: string): RuleInfo | undefined {
  return BY_ID.get(id);
}

/** The level of a rule in a mode; unknown ids stay errors so nothing is silently dropped. */
export function ruleLevel(id: string, mode: ValidationMode): RuleLevel {
  const r = BY_ID.get(id);
  if (!r) return 'error';
  return mode === 'strict' ? r.strict : r.lenient;
}
