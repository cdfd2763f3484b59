import { z } from 'zod';

/** Input of `list_skills` (kept apart from the tool class so the manifest check runs without VS Code). */
export const listSkillsInput = z.strictObject({
  filter: z.string().max(200).optional().describe('Only list skills whose name or description contains this text (case-insensitive).'),
});
export type ListSkillsInput = z.infer<typeof listSkillsInput>;
