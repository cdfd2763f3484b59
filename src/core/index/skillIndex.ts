/**
 * The skill index: an inverted index over every skill's name, description, body headings and body text, scored
 * with BM25F (per-field length normalisation and weights, one saturation, Robertson & Zaragoza 2009), plus a
 * phrase feature (adjacent term pairs of name and description). Each skill is tokenized once, when it is put
 * in; a change or removal touches that skill only (removed skills are dropped from the postings lazily and the
 * postings compacted when a quarter of them are dead), so an edit costs the one skill's text, never a rebuild.
 */
import { compareStrings } from '../text/compareStrings';
import { indexTerms, splitBody, termPairs } from './indexTokens';

/** What the index reads of one skill. */
export interface IndexDoc {
  /** Unique key (the registry's canonical id). */
  id: string;
  name: string;
  description: string;
  /** The SKILL.md body (Markdown after the frontmatter), when known. */
  body?: string;
}

/** The fields the index scores, in packing order. */
export const FIELDS = ['name', 'description', 'headings', 'body'] as const;
export type IndexField = (typeof FIELDS)[number];

/** Tuning of the scoring. The defaults are general BM25F choices, not fitted to any one catalog. */
export interface IndexWeights {
  k1: number;
  /** Per field: weight and length normalisation b. */
  fields: Record<IndexField, { weight: number; b: number }>;
  /** Weight of a matched adjacent term pair relative to a single term. */
  pair: number;
  /**
   * IDF is computed as if the catalog had at least this many skills (the others holding none of the words): in
   * a catalog of three skills a word two of them share would otherwise weigh almost nothing. Default 0.
   */
  minCatalogSize?: number;
}

// Skill bodies are long and vary in length by two orders of magnitude: they weigh less than the description and
// are normalised harder, so a long body does not match every request. k1 is above the usual 1.2-2 because the
// four fields are summed before the one saturation (a word in name, description and body would otherwise
// saturate at once and count little more than a word said once). The name, the skill's shortest and most
// deliberate label, weighs most.
export const DEFAULT_WEIGHTS: IndexWeights = {
  k1: 3,
  fields: {
    name: { weight: 4, b: 0.3 },
    description: { weight: 2, b: 0.6 },
    headings: { weight: 1, b: 0.5 },
    body: { weight: 0.3, b: 0.9 },
  },
  pair: 0.7,
};

/** One term's contribution to one skill's score, for explanations. */
export interface TermMatch {
  term: string;
  /** Occurrences per field (only fields where it occurs). */
  fields: Partial<Record<IndexField, number>>;
  score: number;
}

/** A scored skill. */
export interface IndexHit {
  id: string;
  score: number;
  /** score / the most the query could score (every term fully matched): 0..1, comparable across catalogs. */
  confidence: number;
}

// Field counts packed in one 32-bit number: name 6 bits, description 8, headings 6, body 12 (each capped).
const CAPS = [63, 255, 63, 4095];
const SHIFTS = [0, 6, 14, 20];
const STEPS = SHIFTS.map((s) => 2 ** s);
const unpack = (p: number, f: number): number => (p >>> SHIFTS[f]) & CAPS[f];

interface Postings {
  slots: number[];
  counts: number[];
  /** Live skills that hold the term. */
  df: number;
}

/** Query terms with their weights. */
interface QueryTerms {
  terms: Map<string, number>;
  pairs: Map<string, number>;
}

/** Most characters of a body's text the index reads (the part that says what the skill is for comes first). */
export const MAX_BODY_CHARS = 16_000;

/** Longest query the index reads (a longer one is read up to here). */
export const MAX_QUERY_CHARS = 20_000;

export class SkillIndex {
  readonly #weights: IndexWeights;
  readonly #postings = new Map<string, Postings>();
  readonly #slotOf = new Map<string, number>();
  /** Lowercase name → ids of the skills with that name. */
  readonly #byName = new Map<string, Set<string>>();
  #ids: (string | undefined)[] = [];
  #names: string[] = [];
  #lengths: number[][] = FIELDS.map(() => []);
  #terms: (string[] | undefined)[] = [];
  readonly #lengthSums = FIELDS.map(() => 0);
  #live = 0;
  #deadPostings = 0;
  #livePostings = 0;
  #scores = new Float64Array(0);

  constructor(weights: IndexWeights = DEFAULT_WEIGHTS) {
    this.#weights = weights;
  }

  /** Skills in the index. */
  get size(): number {
    return this.#live;
  }

  has(id: string): boolean {
    return this.#slotOf.has(id);
  }

  /** Ids of every skill in the index, in no particular order. */
  ids(): string[] {
    return [...this.#slotOf.keys()];
  }

  /** Adds a skill, or replaces the one with the same id (its old terms are dropped). */
  put(doc: IndexDoc): void {
    if (this.#slotOf.has(doc.id)) this.remove(doc.id);
    const { headings, text } = splitBody(doc.body ?? '');
    const perField = [indexTerms(doc.name.replace(/[-_.]/g, ' ')), indexTerms(doc.description), indexTerms(headings), indexTerms(text, MAX_BODY_CHARS)];
    // Each term's counts per field, packed as they will be stored (one number per term, no array per term).
    const counts = new Map<string, number>();
    const add = (t: string, f: number) => {
      const p = counts.get(t) ?? 0;
      counts.set(t, ((p >>> SHIFTS[f]) & CAPS[f]) < CAPS[f] ? p + STEPS[f] : p);
    };
    perField.forEach((terms, f) => {
      for (const t of terms) add(t, f);
    });
    // Phrases: adjacent pairs within the name and within the description.
    for (const f of [0, 1]) for (const p of termPairs(perField[f])) add(p, f);
    const slot = this.#ids.length;
    this.#ids.push(doc.id);
    this.#names.push(doc.name);
    perField.forEach((terms, f) => {
      this.#lengths[f].push(terms.length);
      this.#lengthSums[f] += terms.length;
    });
    const keys = [...counts.keys()];
    this.#terms.push(keys);
    for (const t of keys) {
      let p = this.#postings.get(t);
      if (!p) this.#postings.set(t, (p = { slots: [], counts: [], df: 0 }));
      p.slots.push(slot);
      p.counts.push(counts.get(t) as number);
      p.df++;
    }
    this.#livePostings += keys.length;
    this.#slotOf.set(doc.id, slot);
    const lower = doc.name.toLowerCase();
    let named = this.#byName.get(lower);
    if (!named) this.#byName.set(lower, (named = new Set()));
    named.add(doc.id);
    this.#live++;
  }

  /** Ids of the skills with this name (case-insensitive). */
  idsNamed(name: string): string[] {
    return [...(this.#byName.get(name.toLowerCase()) ?? [])];
  }

  /** The name a skill was put in with. */
  nameOf(id: string): string | undefined {
    const slot = this.#slotOf.get(id);
    return slot === undefined ? undefined : this.#names[slot];
  }

  /**
   * How many skills use the rarest part of a name: its one term's document frequency, or for a name of several
   * words the least frequent of its adjacent word pairs (a pair occurs in names and descriptions only). A
   * name made only of stop words gives the number of skills (as common as a word can be).
   */
  nameFrequency(name: string): number {
    const terms = indexTerms(name.replace(/[-_.]/g, ' '));
    if (!terms.length) return this.#live;
    const pairs = termPairs(terms);
    if (!pairs.length) return Math.min(...terms.map((t) => this.df(t)));
    return Math.min(...pairs.map((p) => this.df(p)));
  }

  /** Removes a skill; true when it was there. Its postings are skipped at once and dropped at the next compaction. */
  remove(id: string): boolean {
    const slot = this.#slotOf.get(id);
    if (slot === undefined) return false;
    this.#slotOf.delete(id);
    const lower = this.#names[slot].toLowerCase();
    const named = this.#byName.get(lower);
    named?.delete(id);
    if (named?.size === 0) this.#byName.delete(lower);
    this.#ids[slot] = undefined;
    const terms = this.#terms[slot] as string[];
    for (const t of terms) (this.#postings.get(t) as Postings).df--;
    FIELDS.forEach((_, f) => (this.#lengthSums[f] -= this.#lengths[f][slot]));
    this.#terms[slot] = undefined;
    this.#live--;
    this.#deadPostings += terms.length;
    this.#livePostings -= terms.length;
    if (this.#deadPostings > 1000 && this.#deadPostings > this.#livePostings / 4) this.#compact();
    return true;
  }

  /** Document frequency of an index term (stemmed), over live skills. */
  df(term: string): number {
    return this.#postings.get(term)?.df ?? 0;
  }

  /** Inverse document frequency of an index term (BM25's, never negative). */
  idf(term: string): number {
    const df = this.df(term);
    return Math.log(1 + (this.#n() - df + 0.5) / (df + 0.5));
  }

  /** The number of skills IDF counts with. */
  #n(): number {
    return Math.max(this.#live, this.#weights.minCatalogSize ?? 0);
  }

  /**
   * The skills that match the query, best first, at most `limit` (every match when omitted). Ties go by
   * name, then id, so the same index and query always give the same order.
   */
  search(query: string, limit = Number.POSITIVE_INFINITY): IndexHit[] {
    const q = this.#queryTerms(query);
    const scores = this.#score(q);
    const touched: number[] = [];
    for (let s = 0; s < scores.length; s++) if (scores[s] > 0 && this.#ids[s] !== undefined) touched.push(s);
    const cmp = (a: number, b: number) => scores[b] - scores[a] || compareStrings(this.#names[a], this.#names[b]) || compareStrings(this.#ids[a] as string, this.#ids[b] as string);
    const top = limit < touched.length / 4 ? selectTop(touched, limit, cmp) : touched.sort(cmp).slice(0, limit);
    const most = this.#maxScore(q);
    return top.map((s) => ({ id: this.#ids[s] as string, score: scores[s], confidence: most > 0 ? Math.min(1, scores[s] / most) : 0 }));
  }

  /** Why one skill scored what it did for the query: each matched term (and phrase) with its fields and share. */
  explain(query: string, id: string): TermMatch[] {
    const slot = this.#slotOf.get(id);
    if (slot === undefined) return [];
    const q = this.#queryTerms(query);
    const out: TermMatch[] = [];
    for (const [term, weight, isPair] of this.#allTerms(q)) {
      const p = this.#postings.get(term);
      if (!p) continue;
      const i = p.slots.indexOf(slot);
      if (i < 0) continue;
      const fields: Partial<Record<IndexField, number>> = {};
      FIELDS.forEach((f, k) => {
        const n = unpack(p.counts[i], k);
        if (n) fields[f] = n;
      });
      out.push({ term, fields, score: this.#termScore(p, p.counts[i], slot, weight * (isPair ? this.#weights.pair : 1)) });
    }
    return out.sort((a, b) => b.score - a.score || compareStrings(a.term, b.term));
  }

  #queryTerms(query: string): QueryTerms {
    const src = query.length > MAX_QUERY_CHARS ? query.slice(0, MAX_QUERY_CHARS) : query;
    const list = indexTerms(src.replace(/[-_]/g, ' '));
    const terms = new Map<string, number>();
    for (const t of list) terms.set(t, (terms.get(t) ?? 0) + 1);
    const pairs = new Map<string, number>();
    for (const p of termPairs(list)) pairs.set(p, (pairs.get(p) ?? 0) + 1);
    // A word said several times counts more, with diminishing returns.
    for (const m of [terms, pairs]) for (const [t, n] of m) m.set(t, 1 + Math.log(n));
    return { terms, pairs };
  }

  *#allTerms(q: QueryTerms): Generator<[string, number, boolean]> {
    for (const [t, w] of q.terms) yield [t, w, false];
    for (const [t, w] of q.pairs) yield [t, w, true];
  }

  #score(q: QueryTerms): Float64Array {
    const n = this.#ids.length;
    if (this.#scores.length < n) this.#scores = new Float64Array(Math.max(n, this.#scores.length * 2));
    const scores = this.#scores.subarray(0, n);
    scores.fill(0);
    // Per query, not per posting: each field's weight over its average length, and each term's IDF.
    const norm = this.#norms();
    const k1 = this.#weights.k1;
    const lengths = this.#lengths;
    const ids = this.#ids;
    for (const [term, weight, isPair] of this.#allTerms(q)) {
      const p = this.#postings.get(term);
      if (!p || p.df === 0) continue;
      const w = weight * (isPair ? this.#weights.pair : 1) * this.#idfOf(p);
      const { slots, counts } = p;
      for (let i = 0; i < slots.length; i++) {
        const s = slots[i];
        if (ids[s] === undefined) continue;
        const tf = fieldTf(counts[i], s, lengths, norm);
        scores[s] += (w * tf) / (k1 + tf);
      }
    }
    return scores;
  }

  /** BM25F: field counts normalised by field length and weighted, summed, saturated once, times IDF. */
  #termScore(p: Postings, packed: number, slot: number, weight: number): number {
    const tf = fieldTf(packed, slot, this.#lengths, this.#norms());
    return (weight * this.#idfOf(p) * tf) / (this.#weights.k1 + tf);
  }

  #idfOf(p: Postings): number {
    return Math.log(1 + (this.#n() - p.df + 0.5) / (p.df + 0.5));
  }

  /** Per field: [weight, 1 - b, b / average length]. */
  #norms(): number[][] {
    return FIELDS.map((f, k) => {
      const { weight, b } = this.#weights.fields[f];
      const avg = this.#lengthSums[k] / this.#live || 1;
      return [weight, 1 - b, b / avg];
    });
  }

  /** The score of a skill that matched every query term (unknown terms count at the highest IDF). */
  #maxScore(q: QueryTerms): number {
    let most = 0;
    const n = this.#n();
    const top = Math.log(1 + (n + 0.5) / 0.5);
    for (const [t, w] of q.terms) {
      const p = this.#postings.get(t);
      most += w * (p && p.df > 0 ? Math.log(1 + (n - p.df + 0.5) / (p.df + 0.5)) : top);
    }
    return most;
  }

  /** Drops removed skills from every postings list and renumbers the live ones. */
  #compact(): void {
    const renumber = new Int32Array(this.#ids.length).fill(-1);
    let next = 0;
    this.#ids.forEach((id, s) => {
      if (id !== undefined) renumber[s] = next++;
    });
    for (const [t, p] of this.#postings) {
      const slots: number[] = [];
      const counts: number[] = [];
      for (let i = 0; i < p.slots.length; i++) {
        const r = renumber[p.slots[i]];
        if (r >= 0) {
          slots.push(r);
          counts.push(p.counts[i]);
        }
      }
      if (slots.length) this.#postings.set(t, { slots, counts, df: p.df });
      else this.#postings.delete(t);
    }
    const keep = <T>(a: T[]) => a.filter((_, s) => renumber[s] >= 0);
    this.#names = keep(this.#names);
    this.#lengths = this.#lengths.map(keep);
    this.#terms = keep(this.#terms);
    this.#ids = keep(this.#ids);
    for (const [id, s] of this.#slotOf) this.#slotOf.set(id, renumber[s]);
    this.#deadPostings = 0;
  }
}

/** The weighted, length-normalised count of one posting over the four fields. */
function fieldTf(packed: number, slot: number, lengths: number[][], norm: number[][]): number {
  let tf = 0;
  for (let f = 0; f < 4; f++) {
    const c = (packed >>> SHIFTS[f]) & CAPS[f];
    if (c === 0) continue;
    const [w, oneMinusB, bOverAvg] = norm[f];
    tf += (w * c) / (oneMinusB + bOverAvg * lengths[f][slot]);
  }
  return tf;
}

/** The first `k` of `items` under `cmp`, in order, without sorting them all. */
function selectTop(items: number[], k: number, cmp: (a: number, b: number) => number): number[] {
  const heap: number[] = [];
  // A max-heap on "worse": the root is the worst of the best k so far.
  const worse = (a: number, b: number) => cmp(a, b) > 0;
  const up = (i: number) => {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!worse(heap[i], heap[parent])) break;
      [heap[i], heap[parent]] = [heap[parent], heap[i]];
      i = parent;
    }
  };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && worse(heap[l], heap[m])) m = l;
      if (r < heap.length && worse(heap[r], heap[m])) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m], heap[i]];
      i = m;
    }
  };
  for (const x of items) {
    if (heap.length < k) {
      heap.push(x);
      up(heap.length - 1);
    } else if (cmp(x, heap[0]) < 0) {
      heap[0] = x;
      down(0);
    }
  }
  return heap.sort(cmp);
}
