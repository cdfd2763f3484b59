import { rule, type RuleInfo } from './ruleInfo';

/**
 * File-shape rules. The parser (parseSkillFile / fastParseSkillFile) finds these while reading the file;
 * this module holds their metadata only.
 */
export const FILE_SHAPE_RULES: readonly RuleInfo[] = [
  rule('skill-file-missing', 'error', 'error', 'The skill folder has no SKILL.md.',
    'A skill is a folder with a `SKILL.md` file at its root (`skill.md` is accepted when `SKILL.md` is absent). Create `SKILL.md` with `name` and `description` frontmatter.'),
  rule('skill-file-lowercase', 'off', 'info', 'The skill file is named skill.md instead of SKILL.md.',
    'The reference and most hosts accept `skill.md` only as a fallback; some hosts look for `SKILL.md` only. Rename the file to `SKILL.md`.'),
  rule('file-bom', 'error', 'warning', 'SKILL.md starts with a byte order mark.',
    'The file must start with `---`. A BOM is invisible in most editors; hosts that strip it still load the skill, but the reference rejects it. Save the file as UTF-8 without BOM.'),
  rule('frontmatter-leading-blank', 'error', 'warning', 'Blank lines come before the opening `---`.',
    'The frontmatter must be the very first thing in the file. Delete the blank lines above `---`.'),
  rule('frontmatter-missing', 'error', 'error', 'SKILL.md does not start with YAML frontmatter.',
    'Start the file with a `---` line, then `name:` and `description:` fields, then a closing `---` line. Without frontmatter a skill has no description, so no host can offer it.',
    { fix: { title: 'Add frontmatter with name and description', safe: false } }),
  rule('frontmatter-unclosed', 'error', 'error', 'The frontmatter is never closed with `---`.',
    'Add a `---` line after the last frontmatter field, before the Markdown body.'),
  rule('yaml-syntax', 'error', 'error', 'The frontmatter is not valid YAML.',
    'Hosts cannot read any field of a skill whose frontmatter does not parse. Quote values that contain `: `, indent with spaces, and write each key once.',
    { fix: { title: 'Quote a value that contains a colon', safe: false } }),
  rule('yaml-strict-subset', 'error', 'off', 'The frontmatter uses YAML the reference parser refuses (flow `[...]`/`{...}`, anchors, aliases, tags).',
    'The reference validator reads frontmatter with a strict YAML subset: no flow collections, no `&anchors`/`*aliases`, no `!tags`. Write lists as `- item` lines and mappings as indented `key: value` lines.'),
  rule('frontmatter-not-mapping', 'error', 'error', 'The frontmatter is not a mapping of `key: value` lines.',
    'The frontmatter must be a YAML mapping such as `name: my-skill`, not a list or a single value.'),
];

/** Parse rules after which the fields cannot be trusted, so field rules are skipped (as the reference does). */
export const FATAL_PARSE_RULES: ReadonlySet<string> = new Set(['frontmatter-missing', 'frontmatter-unclosed', 'yaml-syntax', 'frontmatter-not-mapping']);
