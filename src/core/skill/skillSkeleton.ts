// A new skill as "Create Skill" and "Create Plugin" write it: a name check that says how to fix the name, and a
// SKILL.md that is valid as written, with the parts to fill in said plainly.

const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A valid name close to what was typed ("My_Skill" -> "my-skill"), if there is one. */
export function suggestSkillName(name: string): string | undefined {
  const s = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 64).replace(/-+$/, '');
  return s && s !== name && NAME.test(s) ? s : undefined;
}

/** Why a name is not a valid skill name, or undefined when it is. */
export function skillNameProblem(name: string): string | undefined {
  if (!name) return 'Give the skill a name, e.g. "pdf-processing".';
  if (name.length > 64) return `At most 64 characters (this one has ${name.length}).`;
  if (!NAME.test(name)) {
    const hint = suggestSkillName(name);
    return `Lower-case letters, digits and single hyphens only, not starting or ending with a hyphen${hint ? `: try "${hint}"` : ' (e.g. "pdf-processing")'}.`;
  }
  return undefined;
}

/** The SKILL.md of a new skill: valid as written, with the parts to fill in said plainly. */
export function skillSkeleton(name: string, description: string): string {
  const title = name.split('-').map((w) => w[0].toUpperCase() + w.slice(1)).join(' ');
  const yamlValue = /^[\s\-?]|[:#'"{}[\],&*!|>%@`]|\s$/.test(description) ? JSON.stringify(description) : description;
  return `---\nname: ${name}\ndescription: ${yamlValue}\n---\n\n# ${title}\n\n## When to use\n\nDescribe the tasks this skill is for.\n\n## Steps\n\n1. First step.\n2. Second step.\n`;
}

