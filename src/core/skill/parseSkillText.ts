import { fastParseSkillFile } from './fastParseSkillFile';
import { parseSkillFile } from './parseSkillFile';
import type { ParsedSkillFile } from './skillTypes';

/**
 * Parses SKILL.md text the cheap way when it can: simple `key: value` frontmatter goes through
 * {@link fastParseSkillFile} (same result as {@link parseSkillFile}, checked by its tests), anything
 * else through the YAML parser. `lazyRanges`: see {@link fastParseSkillFile} (for callers that read a
 * field's range only to report a finding, like the registry).
 */
export function parseSkillText(text: string, lazyRanges = false): ParsedSkillFile {
  return fastParseSkillFile(text, lazyRanges) ?? parseSkillFile(text);
}
