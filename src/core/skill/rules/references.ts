import { rule, type RuleInfo } from './ruleInfo';

export const REFERENCE_MAX_TOKENS = 25_000;

/** Rules about the files a skill's body refers to (they need the skill folder, so they run in validateFiles). */
export const REFERENCE_RULES: readonly RuleInfo[] = [
  rule('reference-missing', 'warning', 'warning', 'A relative link or `scripts/…`-style path in the body points to a missing file.',
    'The model will try to read or run the file and fail. Fix the path (relative to the skill folder) or add the file. When one file of the skill has a close name, the message says which and the quick fix changes the path to it. Paths the text gives another owner ("`other-skill`\'s `references/x.md`", "the user\'s `notes/x.md`") are not the skill\'s files.',
    { fix: { title: 'Change the path to the close existing file', safe: false } }),
  rule('reference-outside', 'warning', 'warning', 'A relative link or path in the body points outside the skill folder.',
    'A skill must be self-contained: files outside its folder are missing when it is installed elsewhere, and the runtime will not load them. Copy the file into the skill.'),
  rule('reference-sibling-skill', 'info', 'info', 'A path in the body points into another skill published beside this one.',
    'Installers put the skills of one collection side by side (`.claude/skills/<name>`, `.agents/skills/<name>`), so `../other-skill/file.md` works when `other-skill` is installed too and breaks when this skill is installed alone. Say in the body which skill this one needs, or copy the file in. A path written as the sibling\'s own relative path (`scripts/tool.py` when only `../other-skill/scripts/tool.py` exists) is read from this skill\'s folder and is reported with the path that reaches it. Not reported for a skill in a plugin\'s `skills/` folder when the path is written through `../`: a plugin is installed whole.'),
  rule('backslash-path', 'warning', 'warning', 'A path in the body uses `\\` separators.',
    'Skills run on Linux and macOS too, where `scripts\\run.py` is a file name with a backslash in it, not a path. Write paths with `/`.',
    { fix: { title: 'Use / separators', safe: true } }),
  rule('file-unreferenced', 'info', 'info', 'A file of the skill is never mentioned by SKILL.md or by any other file of the skill.',
    'The model learns about bundled files only from SKILL.md (and the files it points to). A file nothing mentions is never read or run: mention it where it is needed, or delete it. A file counts as mentioned when its path, its name, its name without extension (a module imported by name) or a folder holding it (`themes/`) appears in any text file of the skill; licence files count by themselves, and so do files for tools rather than the model: package manifests, lock files, tests, evals, provenance records, and manifests of the skill itself (`SKILL.<host>.yaml`, a root JSON/YAML/TOML file whose `name`, `id` or `title` is the skill\'s name).'),
  rule('reference-too-many-tokens', 'warning', 'warning', 'A file the body refers to is over the token limit of one read.',
    'Hosts read a referenced file in one tool call, and cap what one read returns (Claude Code: 25,000 tokens); the rest is cut off. Split the file into smaller ones, or add a table of contents so the model can read it in parts. The limit is the option `maxTokens` (estimated as characters / 4).',
    { options: { maxTokens: { default: REFERENCE_MAX_TOKENS, description: 'Most estimated tokens (characters / 4) of one referenced file.' } } }),
];
