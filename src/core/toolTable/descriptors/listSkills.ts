// list_skills: the `<available_skills>` block as a tool, for agents whose instructions carry none.
import { z } from 'zod';
import { renderAvailableSkills } from '../../prompt/availableSkills';
import { inputError } from '../../tools/zodProblems';
import type { SkillListing, ToolDescriptor } from '../toolDescriptor';
import { LIST_TOOL, RUNTIME_TOOLS } from '../../tools/toolNames';

/** Input of list_skills. */
export const listSkillsInput = z.strictObject({
  filter: z.string().max(200).optional().describe('Only list skills whose name or description contains this text (case-insensitive).'),
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
  description: `Lists the Agent Skills available to you as an <available_skills> block: each skill's name, a description of when to use it, and its SKILL.md location. Call this before a task that a skill may cover, then call ${RUNTIME_TOOLS.load.name} with the matching skill's name and follow its instructions. Pass 'filter' to list only skills whose name or description contains that text.`,
  sideEffects: false,
  async invoke(ctx, raw) {
    const parsed = listSkillsInput.safeParse(raw ?? {});
    if (!parsed.success) return { ok: false, tool: LIST_TOOL.name, error: inputError(LIST_TOOL.name, parsed.error).toShape() };
    const listing: SkillListing = ctx.services.listSkills
      ? await ctx.services.listSkills(ctx.sessionId)
      : { skills: (await ctx.services.runtime()).source.list().map((r) => ({ name: r.name, description: r.description, location: r.location })), notes: [] };
    const filter = parsed.data.filter?.toLowerCase();
    const skills = listing.skills.filter((r) => !filter || r.name.toLowerCase().includes(filter) || r.description.toLowerCase().includes(filter));
    const notes = listing.notes.map((n) => `\n${n}`).join('');
    const text = skills.length
      ? `${renderAvailableSkills(skills)}\nTo use a skill, call ${RUNTIME_TOOLS.load.name} with its name, then follow its instructions.${notes}`
      : `No skills${filter ? ` match "${parsed.data.filter}"` : ' are available'}.${notes}\nWhat to do: answer without a skill, or tell the user they can create one with the command "Agent Skills: Create Skill".`;
    return { ok: true, tool: LIST_TOOL.name, result: { text, count: skills.length } };
  },
  modelText: (r) => r.text,
};
