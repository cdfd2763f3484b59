/**
 * The one threshold under which a search result is not a good match: `find_skills` then says "no good match",
 * and a trigger judge (does this request select this skill?) predicts no trigger. Confidence is the index's
 * score divided by the score of a skill that matched every word of the query fully (see `IndexHit.confidence`):
 * a skill that matches the query's rarest words in its name or description is well above it, one that shares only
 * a common word or two is below it.
 */
export const MIN_MATCH_CONFIDENCE = 0.2;

/** True when a hit with this confidence counts as a match. */
export function isGoodMatch(confidence: number): boolean {
  return confidence >= MIN_MATCH_CONFIDENCE;
}
