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
import type { IndexHit, SkillIndex, TokenizedDoc } from './skillIndex';

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
  const docs = new Map(head.map((h) => [h.id, index.tokensOf(h.id)]));
  const words = new Set(index.queryTermIds(query));
  const best = head[0].score || 1;
  const vocab = index.vocabulary;
  const keyed = head.slice(1).map((h) => {
    const c = coverage(index, vocab, words, docs.get(h.id));
    return { h, rank: h.score / best + NAME_COVERAGE * c.name + DESCRIPTION_COVERAGE * c.description };
  });
  // A stable sort: equal ranks keep the index's order.
  keyed.sort((a, b) => b.rank - a.rank);
  const ordered = [head[0], ...keyed.map((k) => k.h)];
  const copies: IndexHit[] = [];
  const kept: IndexHit[] = [];
  const near = nearCopyTest(index, (id) => docs.get(id)?.terms);
  for (const h of ordered) {
    if (kept.some((k) => near(k.id, h.id))) copies.push(h);
    else kept.push(h);
  }
  return [...kept, ...copies, ...hits.slice(REORDERED)];
}

/** The IDF-weighted share of a skill's name words and of its description words that `words` (term ids) holds (0..1 each). */
function coverage(index: SkillIndex, vocab: SkillIndex['vocabulary'], words: ReadonlySet<number>, doc: TokenizedDoc | undefined): { name: number; description: number } {
  const all = [0, 0];
  const held = [0, 0];
  if (doc) {
    for (let i = 0; i < doc.terms.length; i++) {
      const c = doc.counts[i];
      const inName = unpack(c, 0) > 0;
      const inDescription = unpack(c, 1) > 0;
      if (!inName && !inDescription) continue;
      const t = doc.terms[i];
      // Phrases are counted through their words.
      if (vocab.termOf(t).includes(' ')) continue;
      const w = index.idfOfTerm(t);
      const has = words.has(t);
      if (inName) {
        all[0] += w;
        if (has) held[0] += w;
      }
      if (inDescription) {
        all[1] += w;
        if (has) held[1] += w;
      }
    }
  }
  return { name: all[0] ? held[0] / all[0] : 0, description: all[1] ? held[1] / all[1] : 0 };
}

/** Per vocabulary id, the stamp of the last skill whose terms were marked (reused by every call, grown as needed). */
const scratch = { stamps: new Int32Array(0), stamp: 0 };

/**
 * A test of two skills for near copies: the Jaccard similarity of their distinct terms (ids) at least
 * {@link NEAR_COPY}. Sizes too far apart are told apart at once; otherwise one skill's terms are stamped in a
 * scratch array by vocabulary id and the other's counted against it (no sort, no set).
 */
function nearCopyTest(index: SkillIndex, termsOf: (id: string) => ArrayLike<number> | undefined): (a: string, b: string) => boolean {
  const terms = index.vocabulary.termCount;
  if (scratch.stamps.length < terms) scratch.stamps = new Int32Array(Math.max(terms, scratch.stamps.length * 2));
  const stamps = scratch.stamps;
  let stamp = 0;
  let stamped = '';
  return (a, b) => {
    const x = termsOf(a);
    const y = termsOf(b);
    if (!x?.length || !y?.length || Math.min(x.length, y.length) / Math.max(x.length, y.length) < NEAR_COPY) return false;
    if (stamped !== a) {
      stamped = a;
      // Stamps only grow (across calls too), so the scratch array is never cleared.
      stamp = ++scratch.stamp;
      for (let i = 0; i < x.length; i++) stamps[x[i]] = stamp;
    }
    let both = 0;
    for (let i = 0; i < y.length; i++) if (stamps[y[i]] === stamp) both++;
    return both / (x.length + y.length - both) >= NEAR_COPY;
  };
}
