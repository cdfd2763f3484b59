/**
 * Searching the catalog in the requester's own words (the find_skills tool, `agent-skills search`): the index's
 * best matches in search order (searchOrder.ts) with their descriptions, scores, confidence and, when asked,
 * which words matched in which fields.
 */
import { isGoodMatch } from './matchConfidence';
import { searchInOrder } from './searchOrder';
import type { IndexField, SkillIndex, TermMatch } from './skillIndex';

/** A skill a search can return. */
export interface SearchableSkill {
  id: string;
  name: string;
  description: string;
  /** Absolute SKILL.md path: where the body is read from. */
  location?: string;
}

/** One result. */
export interface FoundSkill {
  name: string;
  id: string;
  description: string;
  location?: string;
  score: number;
  confidence: number;
  /** Which query words matched, in which fields, with their share of the score (when explained). */
  why?: TermMatch[];
}

/** What a search found. */
export interface SkillSearch {
  query: string;
  /** Best first. */
  matches: FoundSkill[];
  /** True when the first match is above the confidence threshold (`MIN_MATCH_CONFIDENCE`). */
  good: boolean;
}

/** Most results one search returns. */
export const MAX_SEARCH_LIMIT = 50;

/**
 * Results a search returns when no limit is given (find_skills, `agent-skills search`): enough that a task
 * needing several skills finds them in one call, few enough that their descriptions stay a small read.
 */
export const DEFAULT_SEARCH_LIMIT = 10;

/**
 * Searches `index` for `query`, returning at most `limit` of the skills in `skills` (others in the index, e.g.
 * hidden ones, are passed over). `explain` adds each match's matched words.
 */
export function searchSkills(index: SkillIndex, skills: ReadonlyMap<string, SearchableSkill>, query: string, options: { limit?: number; explain?: boolean } = {}): SkillSearch {
  const limit = Math.max(1, Math.min(options.limit ?? DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT));
  const matches: FoundSkill[] = [];
  // Ask for a few more than wanted when some skills of the index are not offered here.
  const extra = Math.max(0, index.size - skills.size);
  for (const hit of searchInOrder(index, query, limit + Math.min(extra, 200))) {
    const s = skills.get(hit.id);
    if (!s) continue;
    matches.push({ name: s.name, id: s.id, description: s.description, ...(s.location ? { location: s.location } : {}), score: round(hit.score), confidence: round(hit.confidence), ...(options.explain ? { why: index.explain(query, s.id) } : {}) });
    if (matches.length >= limit) break;
  }
  return { query, matches, good: matches.length > 0 && isGoodMatch(matches[0].confidence) };
}

const round = (x: number) => Math.round(x * 1000) / 1000;

const FIELD_WORD: Record<IndexField, string> = { name: 'name', description: 'description', headings: 'headings', body: 'body' };

/** One line saying why a skill scored what it did: `pdf (name 1, description 2) 3.2; merg (body 4) 0.9`. */
export function explainLine(why: readonly TermMatch[], max = 8): string {
  if (!why.length) return 'no word of the request matched';
  const parts = why.slice(0, max).map((m) => {
    const fields = Object.entries(m.fields).map(([f, n]) => `${FIELD_WORD[f as IndexField]} ${n}`).join(', ');
    return `"${m.term}" (${fields}) ${m.score.toFixed(2)}`;
  });
  return `${parts.join('; ')}${why.length > max ? `; and ${why.length - max} more` : ''}`;
}
