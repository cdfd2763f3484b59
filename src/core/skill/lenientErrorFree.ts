import type { ParsedSkillFile } from './skillTypes';

/**
 * The rules whose default level in lenient mode is `error`: the only ones that can make a skill broken in the
 * registry's default mode. {@link lenientErrorFree} rules each of them out; a test compares this list with the rule
 * table, so a rule that becomes a lenient error must be ruled out there too.
 */
export const LENIENT_ERROR_RULES: readonly string[] = [
  'skill-file-missing',
  'frontmatter-missing',
  'frontmatter-unclosed',
  'yaml-syntax',
  'frontmatter-not-mapping',
  'description-missing',
  'description-empty',
];

/**
 * True when the content rules in lenient mode, with the default rule levels (no configuration), cannot find an error
 * in `parsed`: the file was read (skill-file-missing), the parser found nothing at all (so no file-shape error), the
 * frontmatter is a mapping, and `description` is a non-empty string. Far cheaper than running the rules: the registry
 * knows from it that a skill is usable, and makes its warnings only when they are asked for. False says nothing
 * (run the rules).
 */
export function lenientErrorFree(parsed: ParsedSkillFile): boolean {
  if (parsed.diagnostics.length !== 0) return false;
  const fm = parsed.frontmatter;
  if (!fm || !fm.yamlOk || !fm.isMapping) return false;
  const description = parsed.properties.description;
  return typeof description === 'string' && description.trim() !== '';
}
