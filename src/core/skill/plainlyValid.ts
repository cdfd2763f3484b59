import { BODY_MAX_LINES, BODY_MAX_TOKENS, countLines } from './validateBody';
import { DESCRIPTION_MAX, isSimpleName, NAME_MAX, RESERVED_WORDS } from './validateFrontmatter';
import type { ParsedSkillFile } from './types';

/**
 * True when no content rule, in either mode, has anything to say about the file: a clean parse of a file
 * named SKILL.md whose frontmatter is only `name` (a simple lowercase name equal to its folder's, without a
 * reserved word), `description` (non-empty, at most 1024 characters, no `<`) and optionally `license`, each a
 * string written once, with a body under the size limits. Most skills look like this, and a scan of
 * thousands then skips building the findings for each. Anything else returns false and is validated in full;
 * tests check that a file this accepts gets no finding from the full validator.
 */
export function plainlyValid(parsed: ParsedSkillFile, folderName: string, fileName: string | undefined): boolean {
  if ((fileName !== undefined && fileName !== 'SKILL.md') || parsed.diagnostics.length !== 0) return false;
  const fm = parsed.frontmatter;
  if (!fm || !fm.yamlOk || !fm.isMapping || fm.strictYamlIssues?.length) return false;
  // The body rules: about 4 characters a token, and a line count (a body this short needs none).
  const body = parsed.body;
  if (body.length > BODY_MAX_TOKENS * 4 || (body.length > BODY_MAX_LINES && countLines(body) >= BODY_MAX_LINES)) return false;
  let name: unknown;
  let description: unknown;
  let license: unknown;
  for (const f of parsed.fields) {
    if (f.kind !== 'scalar') return false;
    switch (f.key) {
      case 'name':
        if (name !== undefined) return false;
        name = f.value;
        break;
      case 'description':
        if (description !== undefined) return false;
        description = f.value;
        break;
      case 'license':
        if (license !== undefined) return false;
        license = f.value;
        break;
      default:
        return false;
    }
  }
  if (typeof name !== 'string' || name !== folderName || name.length > NAME_MAX || !isSimpleName(name)) return false;
  if (name.includes(RESERVED_WORDS[0]) || name.includes(RESERVED_WORDS[1])) return false;
  if (license !== undefined && typeof license !== 'string') return false;
  if (typeof description !== 'string' || description.length > DESCRIPTION_MAX || description.includes('<')) return false;
  return description.trim() !== '' && parsed.properties.name === name && parsed.properties.description === description;
}
