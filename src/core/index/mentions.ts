/**
 * Skills the request names. `$name` / `#name` always count; a plain word or hyphenated phrase equal to a
 * skill's name counts only when the name is distinctive in this catalog (the index's document frequency of its
 * rarest part is low), so "format the table" does not pick a skill named `format` out of thousands, while a
 * request that says "pdf-redactor" still gets that skill.
 */
import type { SkillIndex } from './skillIndex';

/** Skills the user names in the request, by id, in order of first appearance. */
export interface IndexMentions {
  /** Named with a `$` or `#` sigil. */
  explicit: string[];
  /** Named as a plain word or phrase whose name is distinctive; excludes explicit ones. */
  named: string[];
}

/** A name is distinctive when at most this share of the catalog uses its rarest part (and never below {@link MIN_DISTINCT_DF} skills). */
export const DISTINCT_SHARE = 0.002;
export const MIN_DISTINCT_DF = 2;

/** Longest request read for mentions. */
const MAX_MENTION_CHARS = 20_000;

// A word or a hyphen/underscore/dot-joined run of words, with its optional sigil.
const CANDIDATE = /(^|[^\p{L}\p{N}_$#-])([$#]?)([\p{L}\p{N}_]+(?:[-.][\p{L}\p{N}_]+)*)/gu;

/** True when a plain mention of this name should win over relevance. */
export function isDistinctiveName(index: SkillIndex, name: string): boolean {
  return index.nameFrequency(name) <= Math.max(MIN_DISTINCT_DF, index.size * DISTINCT_SHARE);
}

/** Finds the mentions of skills in the index. Names compare case-insensitively. */
export function findMentions(request: string, index: SkillIndex): IndexMentions {
  const src = request.length > MAX_MENTION_CHARS ? request.slice(0, MAX_MENTION_CHARS) : request;
  const explicit: string[] = [];
  const named: string[] = [];
  const seen = new Set<string>();
  const distinct = new Map<string, boolean>();
  for (const m of src.matchAll(CANDIDATE)) {
    const sigil = m[2] !== '';
    const words = m[3];
    // A dotted run may end a sentence ("use pdf-tools."): try the run, then without its dotted parts.
    for (const candidate of new Set([words, words.split('.')[0]])) {
      const ids = index.idsNamed(candidate);
      if (!ids.length) continue;
      const key = candidate.toLowerCase();
      if (sigil) {
        for (const id of ids) if (!explicit.includes(id)) explicit.push(id);
        seen.add(key);
      } else if (!seen.has(key)) {
        let d = distinct.get(key);
        if (d === undefined) distinct.set(key, (d = isDistinctiveName(index, candidate)));
        if (d) for (const id of ids) if (!named.includes(id)) named.push(id);
        seen.add(key);
      }
      break;
    }
  }
  return { explicit, named: named.filter((id) => !explicit.includes(id)) };
}
