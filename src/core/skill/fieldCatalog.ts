/**
 * The frontmatter fields the validator knows: the six of the Agent Skills specification, and the fields
 * hosts define on top (VS Code's built-in skill support, Claude Code). Codex reads only `name`,
 * `description` and `metadata`, so it adds none. Hover and completion read the docs from here.
 */

import { AGENT_PROFILES, agentsDefiningField } from './agentProfiles';

/** The shape a field's value must have. */
export type FieldValueType = 'string' | 'boolean' | 'string-or-list' | 'mapping';

/** One known frontmatter field. */
export interface FieldInfo {
  key: string;
  /** True for the fields of the Agent Skills specification. */
  standard: boolean;
  /** Hosts that define the field (for non-standard fields). */
  hosts: readonly string[];
  type: FieldValueType;
  /** One line for hover and completion. */
  doc: string;
}

/** A field; the hosts that define a non-standard one come from their profiles (hostProfiles), the one table of what each host reads. */
const field = (key: string, standard: boolean, type: FieldValueType, doc: string): FieldInfo => ({
  key,
  standard,
  hosts: standard ? [] : agentsDefiningField(key, AGENT_PROFILES).map((h) => h.label),
  type,
  doc,
});

export const FIELDS: readonly FieldInfo[] = [
  field('name', true, 'string', 'Required. The skill id: at most 64 lowercase letters, digits and hyphens; equals the folder name.'),
  field('description', true, 'string', 'Required. What the skill does and when to use it, at most 1024 characters. The model sees only this before activating the skill.'),
  field('license', true, 'string', 'A licence name (e.g. `Apache-2.0`) or the name of a bundled licence file.'),
  field('compatibility', true, 'string', 'Environment requirements (products, system packages, network access), at most 500 characters.'),
  field('metadata', true, 'mapping', 'A mapping of string keys to string values for client-specific data, e.g. `version: "1.0"`.'),
  field('allowed-tools', true, 'string-or-list', 'Experimental. Tools pre-approved while the skill is active: space-separated (`Bash(git:*) Read`), comma-separated, or a list.'),
  field('argument-hint', false, 'string', 'Hint shown after the skill\'s slash command, e.g. `[issue-number]`.'),
  field('user-invocable', false, 'boolean', '`false` hides the skill from the slash-command menu (it stays available to the model).'),
  field('user-invokable', false, 'boolean', 'Older VS Code spelling of `user-invocable`.'),
  field('disable-model-invocation', false, 'boolean', '`true` stops the model from activating the skill on its own; only the user can invoke it.'),
  field('when_to_use', false, 'string', 'Extra trigger phrases, appended to the description in Claude Code\'s skill listing.'),
  field('arguments', false, 'string-or-list', 'Named positional arguments substituted into the body as `$name`.'),
  field('disallowed-tools', false, 'string-or-list', 'Tools removed while the skill is active.'),
  field('model', false, 'string', 'Model to use while the skill runs (e.g. `sonnet`).'),
  field('effort', false, 'string', 'Reasoning effort while the skill runs (`low`, `medium`, `high`, `max`).'),
  field('context', false, 'string', '`fork` runs the skill in an isolated subagent context.'),
  field('agent', false, 'string', 'Subagent type used with `context: fork`.'),
  field('hooks', false, 'mapping', 'Lifecycle hooks scoped to the skill.'),
  field('paths', false, 'string-or-list', 'Glob patterns: the skill activates automatically only for matching files.'),
  field('shell', false, 'string', 'Shell for inline commands: `bash` (default) or `powershell`.'),
  field('version', false, 'string', 'Skill version (e.g. `1.0.0`); portable skills put it under `metadata`.'),
];

const BY_KEY: ReadonlyMap<string, FieldInfo> = new Map(FIELDS.map((f) => [f.key, f]));

/** The known field with this key, or undefined. */
export function getField(key: string): FieldInfo | undefined {
  return BY_KEY.get(key);
}

/** The keys the specification (and the reference validator) allow. */
export const STANDARD_FIELD_KEYS: readonly string[] = FIELDS.filter((f) => f.standard).map((f) => f.key);
