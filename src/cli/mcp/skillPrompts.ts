// User-invocable skills as MCP prompts: a client's slash menu shows them by name; `argument-hint` is the one
// argument, substituted into the body as `$ARGUMENTS` / `$N` exactly as `runSkill run` does.
import type { GetPromptResult, Prompt } from '@modelcontextprotocol/server';
import { substituteArguments } from '../../core/catalog/skillArguments';
import type { CatalogEntry } from '../../core/catalog/catalogTypes';
import type { SkillCatalog } from '../../core/catalog/skillCatalog';
import { parseSkillText } from '../../core/skill/parseSkillText';
import { invalidParams } from './requestError';

/** The prompt argument that carries what the user typed after the prompt's name. */
export const PROMPT_ARGUMENT = 'arguments';

function userInvocable(e: CatalogEntry): boolean {
  const v = e.properties['user-invocable'] ?? e.properties['user-invokable'];
  return String(v ?? 'true').trim().toLowerCase() !== 'false';
}

function hintOf(e: CatalogEntry): string | undefined {
  const h = e.properties['argument-hint'];
  return typeof h === 'string' && h.trim() ? h.trim() : undefined;
}

/** The prompts for these skills (user-invocable ones only). */
export function skillPrompts(skills: readonly CatalogEntry[]): Prompt[] {
  return skills.filter(userInvocable).map((e) => {
    const hint = hintOf(e);
    return {
      name: e.name,
      description: e.description,
      arguments: [{ name: PROMPT_ARGUMENT, description: hint ?? 'What to do (substituted for $ARGUMENTS in the skill, or appended).', required: false }],
    };
  });
}

/** `prompts/get`: the skill's instructions with the arguments substituted, as one user message. */
export async function getSkillPrompt(catalog: SkillCatalog, skills: readonly CatalogEntry[], name: string, args: Record<string, string> | undefined): Promise<GetPromptResult> {
  const entry = skills.filter(userInvocable).find((e) => e.name === name);
  if (!entry) throw invalidParams(`No prompt '${name}': it is not a user-invocable skill served here. Call prompts/list for the served prompts.`);
  const file = await catalog.readFile(entry, 'SKILL.md');
  if (!file) throw invalidParams(`Prompt '${name}': the skill's SKILL.md is gone (${entry.location}).`);
  const body = parseSkillText(file.content.toString('utf8')).body;
  const { text } = substituteArguments(body, args?.[PROMPT_ARGUMENT]);
  return {
    description: entry.description,
    messages: [{ role: 'user', content: { type: 'text', text: `Use the skill "${entry.name}" and follow its instructions:\n\n${text}` } }],
  };
}
