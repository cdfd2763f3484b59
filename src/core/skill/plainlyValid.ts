import { bodyIsPlain } from './rules/body';
import { descriptionIsPlain } from './rules/description';
import { agentFieldsArePlain } from './rules/agentFields';
import { nameIsPlain } from './rules/name';
import { invisibleIn } from './rules/unicode';
import { isQuiet } from './quietText';
import { includesVia } from './textSearch';
import type { ParsedSkillFile } from './skillTypes';

/**
 * True when no content rule, in either mode, has anything to say about the file: a clean parse of a file
 * named SKILL.md whose frontmatter is only `name`, `description` and optionally `license`, each a string
 * written once, and where each rule family's own "plain" predicate (the one its checks start with) holds.
 * Most skills look like this, and a scan of thousands then skips building the findings for each. Anything
 * else returns false and is validated in full; tests check that a file this accepts gets no finding from
 * the full validator.
 *
 * `quiet`: whether the text is quiet (see quietText), found by one pass over it when not given; tests pass `false`
 * to compare the quiet path with every search made.
 */
export function plainlyValid(parsed: ParsedSkillFile, folderName: string, fileName: string | undefined, quiet?: boolean): boolean {
  if ((fileName !== undefined && fileName !== 'SKILL.md') || parsed.diagnostics.length !== 0) return false;
  const fm = parsed.frontmatter;
  if (!fm || !fm.yamlOk || !fm.isMapping || fm.strictYamlIssues?.length) return false;
  // One character class over the text first: quiet text lets each family skip the searches its characters start.
  quiet ??= isQuiet(parsed.text);
  if (!agentFieldsArePlain(parsed.fields, parsed.body, quiet) || !bodyIsPlain(parsed.body, quiet)) return false;
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
  if (!nameIsPlain(name, folderName) || !descriptionIsPlain(description, name as string, quiet)) return false;
  if (license !== undefined && typeof license !== 'string') return false;
  // Quiet text has no invisible character, and no '!': a suppression can only be in the frontmatter (`# agent-skills-…`).
  if (quiet ? includesVia(fm.yaml, 'agent-skills-', 7) : invisibleIn(parsed.text) >= 0 || includesVia(parsed.text, 'agent-skills-', 7)) return false;
  return parsed.properties.name === name && parsed.properties.description === description;
}
