/**
 * The order a search gives its results (find_skills, `agent-skills search`): the index's best match first, as
 * BM25F ranks it; then the next ones re-ordered by how much of each skill's own name and description the request
 * holds, so that a skill whose stated purpose is in the request comes before one that only shares a few rare
 * words with it (a long request that needs several skills names each one's purpose in its own words); then a
 * skill that is a near copy of one listed above it (the same skill installed twice, a fork) gives its place to
 * the next distinct skill and follows after them.
 *
 * The weights were chosen on half A of the routing benchmark's tasks and checked on half B (see the README's
 * routing section); nothing here knows a task, a skill or a domain.
 */
import { unpack } from './postingLists';
import { queryWords, type IndexHit, type SkillIndex } from './skillIndex';

/** How many of the best matches are re-ordered (the first of them stays first). */
export const REORDERED = 20;
/** Weight of the share of a skill's name words the request holds, against its score over the best score. */
export const NAME_COVERAGE = 0.2;
/** Weight of the share of a skill's description words the request holds. */
export const DESCRIPTION_COVERAGE = 0.4;
/** Two skills whose distinct terms (every field, phrases included) overlap at least this much (Jaccard) are near copies. */
export const NEAR_COPY = 0.95;

/** The best `limit` matches of `query` in search order (see the file's comment). */
export function searchInOrder(index: SkillIndex, query: string, limit: number): IndexHit[] {
  const hits = index.search(query, Math.max(limit, REORDERED));
  return inSearchOrder(index, query, hits).slice(0, limit);
}

/** `hits` (best first, as {@link SkillIndex.search} gives them) in search order. */
export function inSearchOrder(index: SkillIndex, query: string, hits: readonly IndexHit[]): IndexHit[] {
  if (hits.length < 2) return [...hits];
  const head = hits.slice(0, REORDERED);
  const words = new Set(queryWords(query));
  const best = head[0].score || 1;
  const vocab = index.vocabulary;
  const keyed = head.slice(1).map((h) => {
    const c = coverage(index, vocab, words, h.id);
    return { h, rank: h.score / best + NAME_COVERAGE * c.name + DESCRIPTION_COVERAGE * c.description };
  });
  // A stable sort: equal ranks keep the index's order.
  keyed.sort((a, b) => b.rank - a.rank);
  const ordered = [head[0], ...keyed.map((k) => k.h)];
  // Term lists are sorted only for the pairs whose sizes allow a near copy (most pairs are told apart by size).
  const sizeOf = (id: string) => index.tokensOf(id)?.terms.length ?? 0;
  const sorted = new Map<string, Int32Array>();
  const termsOf = (id: string) => {
    let t = sorted.get(id);
    if (!t) sorted.set(id, (t = Int32Array.from(index.tokensOf(id)?.terms ?? []).sort()));
    return t;
  };
  const nearCopies = (a: string, b: string) => {
    const [x, y] = [sizeOf(a), sizeOf(b)];
    return x > 0 && y > 0 && Math.min(x, y) / Math.max(x, y) >= NEAR_COPY && jaccard(termsOf(a), termsOf(b)) >= NEAR_COPY;
  };
  const kept: IndexHit[] = [];
  const copies: IndexHit[] = [];
  for (const h of ordered) {
    if (kept.some((k) => nearCopies(k.id, h.id))) copies.push(h);
    else kept.push(h);
  }
  return [...kept, ...copies, ...hits.slice(REORDERED)];
}

/** The IDF-weighted share of a skill's name words and of its description words that `words` holds (0..1 each). */
function coverage(index: SkillIndex, vocab: SkillIndex['vocabulary'], words: ReadonlySet<string>, id: string): { name: number; description: number } {
  const doc = index.tokensOf(id);
  const all = [0, 0];
  const held = [0, 0];
  if (doc) {
    for (let i = 0; i < doc.terms.length; i++) {
      const c = doc.counts[i];
      const inField = [unpack(c, 0) > 0, unpack(c, 1) > 0];
      if (!inField[0] && !inField[1]) continue;
      const term = vocab.termOf(doc.terms[i]);
      // Phrases are counted through their words.
      if (term.includes(' ')) continue;
      const w = index.idf(term);
      const has = words.has(term);
      for (const f of [0, 1]) {
        if (!inField[f]) continue;
        all[f] += w;
        if (has) held[f] += w;
      }
    }
  }
  return { name: all[0] ? held[0] / all[0] : 0, description: all[1] ? held[1] / all[1] : 0 };
}

/** Jaccard similarity of two sorted term-id lists (sets). */
function jaccard(a: Int32Array, b: Int32Array): number {
  let i = 0;
  let j = 0;
  let both = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      both++;
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return both / (a.length + b.length - both || 1);
}
