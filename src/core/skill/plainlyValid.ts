import { bodyIsPlain } from './rules/body';
import { descriptionIsPlain } from './rules/description';
import { hostFieldsArePlain } from './rules/hostFields';
import { nameIsPlain } from './rules/name';
import { invisibleIn } from './rules/unicode';
import { includesVia } from './textSearch';
import type { ParsedSkillFile } from './types';

/**
 * True when no content rule, in either mode, has anything to say about the file: a clean parse of a file
 * named SKILL.md whose frontmatter is only `name`, `description` and optionally `license`, each a string
 * written once, and where each rule family's own "plain" predicate (the one its checks start with) holds.
 * Most skills look like this, and a scan of thousands then skips building the findings for each. Anything
 * else returns false and is validated in full; tests check that a file this accepts gets no finding from
 * the full validator.
 */
export function plainlyValid(parsed: ParsedSkillFile, folderName: string, fileName: string | undefined): boolean {
  if ((fileName !== undefined && fileName !== 'SKILL.md') || parsed.diagnostics.length !== 0) return false;
  const fm = parsed.frontmatter;
  if (!fm || !fm.yamlOk || !fm.isMapping || fm.strictYamlIssues?.length) return false;
  if (!hostFieldsArePlain(parsed.fields, parsed.body) || !bodyIsPlain(parsed.body)) return false;
  let name: unknown;
  let description: unknown;
  let license: unknown;
  for (const f of parsed.fields) {
    if (f.kind !== 'scalar') return false;
    if (f.key === 'name') {
      if (name !== undefined) return false;
      name = f.value;
    } else if (f.key === 'description') {
      if (description !== undefined) return false;
      description = f.value;
    } else {
      if (license !== undefined) return false;
      license = f.value;
    }
  }
  if (!nameIsPlain(name, folderName) || !descriptionIsPlain(description, name as string)) return false;
  if (license !== undefined && typeof license !== 'string') return false;
  if (invisibleIn(parsed.text) >= 0 || includesVia(parsed.text, 'agent-skills-', 7)) return false;
  return parsed.properties.name === name && parsed.properties.description === description;
}
