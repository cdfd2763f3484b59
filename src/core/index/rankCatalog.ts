/**
 * The order in which `<available_skills>` takes skills when the catalog must be cut (seed 002's selection
 * strategy): skills named with `$`/`#`, then skills named by a distinctive plain name, then the index's
 * relevance to the request, then recency of use, then source precedence, then name. Same inputs, same order.
 */
import { sourceRank } from '../sources';
import { compareStrings } from '../text/compareStrings';
import { findMentions, type IndexMentions } from './mentions';
import { SkillIndex, type IndexHit, type TermMatch } from './skillIndex';
import { inOrder } from './topK';

/** A skill the catalog may list, as the ranking reads it (the prompt's `CatalogSkill` is one). */
export interface CatalogSkill {
  /** The skill's key in the index (the registry's canonical id); else its location, else its name, is used. */
  id?: string;
  name: string;
  description: string;
  /** Absolute SKILL.md path; shown unless the composer is told to hide locations. */
  location?: string;
  /** The source kind's name (`workspace`, `user`, ...): on ties, higher-precedence sources rank first. */
  scope?: string;
  /** Epoch ms of the last use in this conversation (before the current turn), for recency ranking. */
  lastUsed?: number;
}

/** The key a catalog skill has in the index: its id, else its location, else its name. */
export const indexKey = (s: CatalogSkill): string => s.id ?? s.location ?? s.name;

/**
 * How many of the best matches are ordered exactly before the rest is sorted, in stages: a budget is usually
 * filled from the first (so a request pays for ranking about what it lists), rarely from the second; past
 * them the whole catalog is ordered.
 */
const STAGES = [256, 1024];

/** A ranking of catalog skills for one request. */
export interface CatalogRanking {
  /** Skills in rank order, computed as far as they are read. */
  order(): Iterable<CatalogSkill>;
  /** Every skill in rank order. */
  all(): CatalogSkill[];
  /** Skill names the request names, explicit (`$`/`#`) and distinctive plain ones. */
  mentions: { explicit: string[]; named: string[] };
  /** The index's score of a skill for the request (0 when it matched nothing). */
  score(s: CatalogSkill): number;
  /** Which words of the request matched the skill, in which fields, with their share of the score. */
  explain(s: CatalogSkill): TermMatch[];
  /** How the request names the skill, if it does. */
  mentioned(s: CatalogSkill): 'explicit' | 'named' | undefined;
}

/**
 * The catalog skills with these keys, each once, in the order of the keys (a key several skills share gives the
 * last of them); keys of no catalog skill are passed over. One pass over the catalog and no map of it.
 */
function headOf(skills: readonly CatalogSkill[], keys: readonly string[]): CatalogSkill[] {
  const at = new Map<string, CatalogSkill | undefined>();
  for (const key of keys) at.set(key, undefined);
  for (const s of skills) {
    const key = indexKey(s);
    if (at.has(key)) at.set(key, s);
  }
  const out: CatalogSkill[] = [];
  for (const s of at.values()) if (s) out.push(s);
  return out;
}

/** Builds an index of name and description only, for callers that keep none (one-off renders, tests). */
export function indexOfCatalog(skills: readonly CatalogSkill[]): SkillIndex {
  const index = new SkillIndex();
  for (const s of skills) if (!index.has(indexKey(s))) index.put({ id: indexKey(s), name: s.name, description: s.description });
  return index;
}

/** Ranks `skills` for `request` with `index` (which should hold them, by {@link indexKey}; missing ones score 0). */
export function rankCatalog(index: SkillIndex, request: string | undefined, skills: readonly CatalogSkill[]): CatalogRanking {
  const m: IndexMentions = request ? findMentions(request, index) : { explicit: [], named: [] };
  const tier = new Map<string, number>();
  m.explicit.forEach((id, i) => tier.set(id, i));
  m.named.forEach((id, i) => tier.set(id, 100_000 + i));
  // The best matches as far as a stage has searched them (the deepest one searched): their scores, and their
  // places as keys (the index orders by more than the score: see SkillIndex.search), the first highest.
  let scoreOf = new Map<string, number>();
  let placeOf = new Map<string, number>();
  const searchTop = (k: number): IndexHit[] => {
    const hits = request ? index.search(request, k) : [];
    scoreOf = new Map(hits.map((h) => [h.id, h.score]));
    placeOf = placesOf(hits);
    return hits;
  };
  const tierOf = (s: CatalogSkill) => tier.get(indexKey(s)) ?? Number.MAX_SAFE_INTEGER;
  const cmp = (a: CatalogSkill, b: CatalogSkill, sa: number, sb: number) =>
    tierOf(a) - tierOf(b) ||
    sb - sa ||
    (b.lastUsed ?? 0) - (a.lastUsed ?? 0) ||
    sourceRank(a.scope) - sourceRank(b.scope) ||
    compareStrings(a.name, b.name) ||
    compareStrings(a.location ?? '', b.location ?? '');
  let full: CatalogSkill[] | undefined;
  let fullHits: IndexHit[] | undefined;
  const hitsAll = () => (fullHits ??= request ? index.search(request) : []);
  let fullScores: Map<string, number> | undefined;
  const scoresAll = () => (fullScores ??= new Map(hitsAll().map((h) => [h.id, h.score])));
  const all = (): CatalogSkill[] => {
    if (full) return full;
    const places = placesOf(hitsAll());
    const keyed = skills.map((s) => ({ s, score: places.get(indexKey(s)) ?? 0 }));
    keyed.sort((a, b) => cmp(a.s, b.s, a.score, b.score));
    return (full = keyed.map((k) => k.s));
  };
  const names = (ids: string[]) => [...new Set(ids.map((id) => index.nameOf(id) as string))];
  return {
    mentions: { explicit: names(m.explicit), named: names(m.named) },
    score: (s) => scoreOf.get(indexKey(s)) ?? scoresAll().get(indexKey(s)) ?? 0,
    explain: (s) => (request ? index.explain(request, indexKey(s)) : []),
    mentioned: (s) => {
      const t = tier.get(indexKey(s));
      return t === undefined ? undefined : t < 100_000 ? 'explicit' : 'named';
    },
    all,
    *order() {
      // The best matches and the named skills first, ordered exactly, in stages of more matches each; only a
      // catalog that still has room after them pays for ordering everything.
      let given = 0;
      for (const k of STAGES) {
        const hits = searchTop(k);
        const head = headOf(skills, [...m.explicit, ...m.named, ...hits.map((h) => h.id)]);
        // A later stage's head holds the earlier one's given skills, ordered the same: they are its first ones.
        const first = head.sort((a, b) => cmp(a, b, placeOf.get(indexKey(a)) ?? 0, placeOf.get(indexKey(b)) ?? 0));
        // Only a full list (fewer matches than asked for) proves that the rest score below the head: the rest
        // then scores 0 and is taken in order from a heap, so a budget that takes j of them costs n + j log n.
        if (hits.length < k) {
          for (let i = given; i < first.length; i++) yield first[i];
          const inHead = new Set(first);
          yield* inOrder(
            skills.filter((s) => !inHead.has(s)),
            (a, b) => cmp(a, b, 0, 0),
          );
          return;
        }
        // Otherwise the head holds the best k matches: the named ones, and those scoring above the last of them,
        // come before every other skill; past them (ties with the last match), the next stage or the whole
        // order decides.
        const floor = placeOf.get(hits[hits.length - 1].id) ?? 0;
        for (let i = given; i < first.length; i++) {
          const s = first[i];
          if (!tier.has(indexKey(s)) && (placeOf.get(indexKey(s)) ?? 0) <= floor) break;
          yield s;
          given++;
        }
      }
      const rest = all();
      for (let i = given; i < rest.length; i++) yield rest[i];
    },
  };
}

/**
 * Each hit's place as a key, the first highest (every hit above 0, the skills not found); neighbours of equal
 * score share a place, so that recency and scope decide between them (seed 002's order).
 */
function placesOf(hits: readonly IndexHit[]): Map<string, number> {
  const out = new Map<string, number>();
  let place = hits.length;
  hits.forEach((h, i) => {
    if (i > 0 && h.score !== hits[i - 1].score) place = hits.length - i;
    out.set(h.id, place);
  });
  return out;
}
