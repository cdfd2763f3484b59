// list_skills: the `<available_skills>` block as a tool, for agents whose instructions carry none.
import { z } from 'zod';
import { renderAvailableSkills } from '../../prompt/availableSkills';
import { inputError } from '../../tools/zodProblems';
import type { SkillListing, ToolDescriptor } from '../toolDescriptor';
import { FIND_TOOL, LIST_TOOL, RUNTIME_TOOLS } from '../../tools/toolNames';
import type { ListedSkill } from '../toolDescriptor';
import { inputText } from '../toolWordingText';
import type { SkillTools } from '../../runtime/skillTools';

/**
 * The listed skills that match `filter`: the skill index's matches best first (the same index as find_skills and
 * <available_skills>), then skills whose name or description contains the text but that the index did not match.
 */
async function filtered(skills: readonly ListedSkill[], filter: string, runtime: SkillTools): Promise<ListedSkill[]> {
  const index = await runtime.index();
  const location = new Map(runtime.served().map((r) => [r.id, r.location]));
  const rank = new Map<string, number>();
  index.search(filter).forEach((h, i) => {
    const at = location.get(h.id);
    if (at !== undefined && !rank.has(at)) rank.set(at, i);
  });
  const text = filter.toLowerCase();
  const contains = (r: ListedSkill) => r.name.toLowerCase().includes(text) || r.description.toLowerCase().includes(text);
  const matched = skills.filter((r) => rank.has(r.location)).sort((a, b) => (rank.get(a.location) as number) - (rank.get(b.location) as number));
  return [...matched, ...skills.filter((r) => !rank.has(r.location) && contains(r))];
}

/** Input of list_skills. */
export const listSkillsInput = z.strictObject({
  filter: z.string().max(200).optional().describe('Only list skills that match these words (searched with the skill index, best match first) or contain this text in their name or description (case-insensitive).'),
});
export type ListSkillsInput = z.infer<typeof listSkillsInput>;

/** The listing as the model reads it: `<available_skills>` and what to do next, or why there is nothing. */
export interface ListSkillsResult {
  text: string;
  count: number;
}

export const listSkillsDescriptor: ToolDescriptor<ListSkillsResult> = {
  ...LIST_TOOL,
  id: LIST_TOOL.name,
  family: 'standard',
  input: listSkillsInput,
  description: `Lists the Agent Skills available to you as an <available_skills> block: each skill's name, a description of when to use it, and its SKILL.md location. Call this before a task that a skill may cover, then call ${RUNTIME_TOOLS.load.name} with the matching skill's name and follow its instructions. Pass 'filter' to list only skills that match it (its words, searched like ${FIND_TOOL.name} does, or the text itself in a name or description), best match first.`,
  sideEffects: false,
  // The listing is the same for every session (a host's listSkills may filter it, never by session state).
  usesSession: false,
  manifest: { icon: '$(book)', userDescription: 'List the Agent Skills available in this workspace and your home folder.' },
  wording: {
    invocation: (i) => (inputText(i.filter) ? `Listing skills matching "${inputText(i.filter)}"…` : 'Listing skills…'),
    progress: () => 'Listing skills…',
  },
  async invoke(ctx, raw) {
    const parsed = listSkillsInput.safeParse(raw ?? {});
    if (!parsed.success) return { ok: false, tool: LIST_TOOL.name, error: inputError(LIST_TOOL.name, parsed.error).toShape() };
    const runtime = ctx.services.listSkills && !parsed.data.filter ? undefined : await ctx.services.runtime();
    const listing: SkillListing = ctx.services.listSkills
      ? await ctx.services.listSkills(ctx.sessionId)
      : { skills: (runtime as SkillTools).served().map((r) => ({ name: r.name, description: r.description, location: r.location })), notes: [] };
    const skills = parsed.data.filter ? await filtered(listing.skills, parsed.data.filter, runtime as SkillTools) : listing.skills;
    const notes = listing.notes.map((n) => `\n${n}`).join('');
    const text = skills.length
      ? `${renderAvailableSkills(skills)}\nTo use a skill, call ${RUNTIME_TOOLS.load.name} with its name, then follow its instructions.${notes}`
      : `No skills${parsed.data.filter ? ` match "${parsed.data.filter}"` : ' are available'}.${notes}\nWhat to do: answer without a skill, or tell the user they can create one with the command "Agent Skills: Create Skill".`;
    return { ok: true, tool: LIST_TOOL.name, result: { text, count: skills.length } };
  },
  modelText: (r) => r.text,
};
