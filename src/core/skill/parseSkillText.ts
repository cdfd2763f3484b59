import { fastParseSkillFile } from './fastParseSkillFile';
import { parseSkillFile } from './parseSkillFile';
import type { ParsedSkillFile } from './types';

/**
 * Parses SKILL.md text the cheap way when it can: simple `key: value` frontmatter goes through
 * {@link fastParseSkillFile} (same result as {@link parseSkillFile}, checked by its tests), anything
 * else through the YAML parser.
 */
export function parseSkillText(text: string): ParsedSkillFile {
  return fastParseSkillFile(text) ?? parseSkillFile(text);
}
