import { AGENT_PROFILES } from './agentProfiles';

/**
 * Known values for SKILL.md frontmatter fields, for editors that offer completions. Suggestions only:
 * the validator decides what is allowed.
 */

/** Which kind of value a frontmatter field takes, when it is a closed or well-known set. */
export type FieldValueKind = 'skill-name' | 'boolean' | 'license' | 'tool-list';

/** The value kind of fields with suggestible values (boolean fields come from the field catalog's `type`). */
export const FIELD_VALUE_KINDS: Readonly<Record<string, FieldValueKind>> = {
  name: 'skill-name',
  license: 'license',
  'allowed-tools': 'tool-list',
};

/** Tool names the hosts of Agent Skills grant in `allowed-tools` (from their profiles), for completion. */
export const KNOWN_TOOL_NAMES: readonly string[] = [...new Set(AGENT_PROFILES.flatMap((h) => h.tools))];

/** A short list of common SPDX licence identifiers. */
export const COMMON_LICENSE_IDS: readonly string[] = [
  'Apache-2.0',
  'MIT',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'GPL-2.0-only',
  'GPL-3.0-only',
  'LGPL-3.0-only',
  'MPL-2.0',
  'ISC',
  'Unlicense',
  'CC-BY-4.0',
  'CC0-1.0',
];
