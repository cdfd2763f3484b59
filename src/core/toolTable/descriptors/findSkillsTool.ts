// find_skills: searches every installed skill with the skill index, in the model's own words, for catalogs that
// do not fit <available_skills>. Results honour what the host may show (list_skills' listing, e.g. no workspace
// skills in an untrusted folder).
import { z } from 'zod';
import { renderAvailableSkills } from '../../prompt/availableSkills';
import { DEFAULT_SEARCH_LIMIT, searchSkills, MAX_SEARCH_LIMIT, type SearchableSkill, type FoundSkill } from '../../index/skillSearch';
import { MIN_MATCH_CONFIDENCE } from '../../index/matchConfidence';
import { MAX_QUERY_CHARS } from '../../index/skillIndex';
import { inputError } from '../../tools/zodProblems';
import type { ToolDescriptor } from '../toolDescriptor';
import { inputText } from '../toolWordingText';
import { FIND_TOOL, RUNTIME_TOOLS } from '../../tools/toolNames';

/** Input of find_skills. */
export const findSkillsInput = z.strictObject({
  query: z.string().trim().min(1).max(MAX_QUERY_CHARS).describe('What the task needs, in your own words (e.g. "fill in a PDF form" or "deploy to Kubernetes with Helm").'),
  limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).optional().describe(`How many skills to return at most (default ${DEFAULT_SEARCH_LIMIT}, at most ${MAX_SEARCH_LIMIT}).`),
});
export type FindSkillsInput = z.infer<typeof findSkillsInput>;

/** What find_skills returns: the matches best first, whether the first is a good match, and the text the model reads. */
export interface FindSkillsResult {
  matches: Omit<FoundSkill, 'why'>[];
  good: boolean;
  notes: string[];
  text: string;
}

export const findSkillsDescriptor: ToolDescriptor<FindSkillsResult> = {
  ...FIND_TOOL,
  id: FIND_TOOL.name,
  family: 'standard',
  input: findSkillsInput,
  description: `Searches every installed Agent Skill, including those not listed in <available_skills>, for the ones that fit a task: give what the task needs in your own words (the subject, the file types, the tools or services involved). Returns the best matches, best first, as an <available_skills> block with each skill's name and description, plus a score. When nothing matches well it says so: then work without a skill or try other words. To use a match, call ${RUNTIME_TOOLS.load.name} with its name and follow its instructions.`,
  sideEffects: false,
  usesSession: false,
  manifest: { icon: '$(search)', userDescription: 'Search every installed Agent Skill for the ones that fit a task, best match first.' },
  wording: {
    invocation: (i) => `Searching skills for "${inputText(i.query)}"…`,
    progress: (i) => `Searching skills for "${inputText(i.query)}"…`,
  },
  async invoke(ctx, raw) {
    const parsed = findSkillsInput.safeParse(raw ?? {});
    if (!parsed.success) return { ok: false, tool: FIND_TOOL.name, error: inputError(FIND_TOOL.name, parsed.error).toShape() };
    const runtime = await ctx.services.runtime();
    const index = await runtime.index();
    const byId = new Map<string, SearchableSkill>(runtime.served().map((r) => [r.id, r]));
    let notes: string[] = [];
    if (ctx.services.listSkills) {
      // Only what the host lists may be found (the listing is keyed by location).
      const listing = await ctx.services.listSkills(ctx.sessionId);
      const shown = new Set(listing.skills.map((s) => s.location));
      for (const [id, s] of byId) if (!shown.has(s.location ?? '')) byId.delete(id);
      notes = listing.notes;
    }
    const found = searchSkills(index, byId, parsed.data.query, { limit: parsed.data.limit });
    return { ok: true, tool: FIND_TOOL.name, result: { matches: found.matches, good: found.good, notes, text: findText(parsed.data.query, found.matches, found.good, notes) } };
  },
  modelText: (r) => r.text,
};

function findText(query: string, matches: FoundSkill[], good: boolean, notes: string[]): string {
  const tail = notes.map((n) => `\n${n}`).join('');
  if (!matches.length) return `No installed skill matches "${query}".${tail}\nWhat to do: work without a skill, or search again with other words (a file type, a tool or a service the task involves).`;
  const scores = matches.map((m) => `${m.name} ${m.score.toFixed(2)} (confidence ${m.confidence.toFixed(2)})`).join(', ');
  const block = renderAvailableSkills(matches.map((m) => ({ name: m.name, description: m.description })));
  if (!good)
    return `No good match for "${query}": the closest skills below share only a few words with it (confidence under ${MIN_MATCH_CONFIDENCE}). Use one only if its description clearly fits the task; otherwise work without a skill or search again with other words.\n${block}\nScores: ${scores}.${tail}`;
  return `${block}\nBest first. Scores: ${scores}.\nTo use a skill, call ${RUNTIME_TOOLS.load.name} with its name, then follow its instructions.${tail}`;
}
