/**
 * The skill index: an inverted index over every skill's name, description, body headings and body text, scored
 * with BM25F (per-field length normalisation and weights, one saturation, Robertson & Zaragoza 2009), plus a
 * phrase feature (adjacent term pairs of name and description). The order adds to BM25F (over the best match's
 * score, so its margins stay) a share of a query likelihood of the same field-weighted text (Dirichlet smoothing,
 * Zhai & Lafferty 2001, scaled to 0..1 over the matches), which weighs a long request's words by how rare they are
 * in the whole catalog's text rather than saturating each one; a hit's score stays BM25F's. Each skill is tokenized once, when it is put
 * in; a change or removal touches that skill only (removed skills are dropped from the postings lazily and the
 * postings compacted when a quarter of them are dead), so an edit costs the one skill's text, never a rebuild.
 */
import { compareStrings } from '../text/compareStrings';
import { indexTerms, leadParagraph, splitBody, termPairs } from './indexTokens';
import { bump, packedTf, PostingLists, unpack } from './postingLists';
import { selectTop } from './topK';

/** What the index reads of one skill. */
export interface IndexDoc {
  /** Unique key (the registry's canonical id). */
  id: string;
  name: string;
  description: string;
  /** The SKILL.md body (Markdown after the frontmatter), when known. */
  body?: string;
}

/**
 * A skill as the index holds it once read: what {@link SkillIndex.tokensOf} gives, to be saved. Its terms are
 * ids into the index's vocabulary ({@link SkillIndex.termOf}), so saving makes no term text per skill.
 */
export interface TokenizedDoc {
  id: string;
  name: string;
  /** Terms per field (name, description, headings, body). */
  lengths: readonly number[];
  /** Each distinct term (phrases included) as a vocabulary id, and its packed per-field counts, in one order. */
  terms: ArrayLike<number>;
  counts: ArrayLike<number>;
}

/** A vocabulary that term ids index: the index's own ({@link SkillIndex}), or any other (tests). */
export interface TermVocabulary {
  /** Ids are below this. */
  readonly termCount: number;
  termOf(id: number): string;
}

/** A skill as a saved index holds it: term ids into that file's vocabulary ({@link SavedVocabulary}). */
export interface SavedTokens {
  id: string;
  name: string;
  lengths: readonly number[];
  termIds: Uint32Array;
  counts: Uint32Array;
}

/**
 * A saved index's vocabulary as one index maps it: `terms[f]` is file term f, held by `df[f]` saved skills;
 * `ids[f]` is its id in the index once one skill using it was put back (-1 before). Made by
 * {@link savedVocabulary}.
 */
export interface SavedVocabulary {
  readonly terms: readonly string[];
  readonly df: ArrayLike<number>;
  readonly ids: Int32Array;
}

/** The mapping of a saved vocabulary for one index (each term looked up on first use). */
export const savedVocabulary = (terms: readonly string[], df: ArrayLike<number>): SavedVocabulary => ({ terms, df, ids: new Int32Array(terms.length).fill(-1) });

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
  /**
   * The query likelihood added to BM25F in the order: its Dirichlet prior mu (in field-weighted terms) and its
   * weight (0: BM25F alone) against BM25F over the best match's score, the likelihood scaled to 0..1 between the
   * lowest and highest of the matches. It reads the fields with their weights above, unnormalised.
   */
  likelihood?: { mu: number; fusion: number };
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
  // Chosen on half A of the routing benchmark's tasks from mu 100/300 and weight 0.1/0.25/0.5, checked on half B
  // (test/bench/recallExperiment.ts, group qlsum): a small prior, and a quarter of BM25F's best.
  likelihood: { mu: 100, fusion: 0.25 },
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

/** Query terms (ids in the index's vocabulary; unknown words left out) with their weights. */
interface QueryTerms {
  /** Every single term of the query with its weight, known or not (for the most it could score). */
  words: Map<string, number>;
  /** Known terms then known pairs, in query order: [term id, weight, is a pair]. */
  known: [number, number, boolean][];
}

/** A query as read (tokenized and stemmed) once: its terms then its pairs, each with its weight. */
interface ReadQuery {
  words: Map<string, number>;
  terms: [string, number, boolean][];
  /** The known terms, for the index as it was at {@link generation}. */
  known: [number, number, boolean][];
  generation: number;
}

/** Queries whose reading is kept: a request is searched several times (mentions, ranking, search, explain). */
const READ_QUERIES = 8;

/** Most characters of a body's text the index reads (the part that says what the skill is for comes first). */
export const MAX_BODY_CHARS = 16_000;

/** Longest query the index reads (a longer one is read up to here). */
export const MAX_QUERY_CHARS = 20_000;

const NFIELDS = FIELDS.length;

export class SkillIndex {
  readonly #weights: IndexWeights;
  readonly #postings = new PostingLists();
  readonly #slotOf = new Map<string, number>();
  /** Lowercase name → ids of the skills with that name. */
  readonly #byName = new Map<string, Set<string>>();
  #ids: (string | undefined)[] = [];
  #names: string[] = [];
  /** Per slot and field (slot * 4 + field): the field's length in terms. */
  #lengths = new Int32Array(64);
  /** Per slot: the term ids it holds (for removal) and their packed counts (for saving), in one order. */
  #terms: (Int32Array | undefined)[] = [];
  #termCounts: (Uint32Array | undefined)[] = [];
  readonly #lengthSums = FIELDS.map(() => 0);
  #live = 0;
  #deadPostings = 0;
  #livePostings = 0;
  #scores = new Float64Array(0);
  /** The slots the current query scored, in the order first scored (scratch, reused by every query). */
  #touched = new Int32Array(0);
  /** Per slot: 1 while the skill is in the index (a removed skill's postings stay until compaction). */
  #alive = new Uint8Array(64);
  /** Bumped by every put, remove and compaction: a query's known terms are looked up again after one. */
  #generation = 0;
  readonly #readQueries = new Map<string, ReadQuery>();
  /** The current query's known words' weights summed (the likelihood's length part counts each word). */
  #likelihoodWeight = 0;
  /** Per slot and field: the field's weight over its normalised length, for the current average lengths. */
  #fieldNorms = new Float64Array(0);
  /** False after a put or remove changed the average lengths. */
  #normsFresh = false;
  /** Per slot: the likelihood's length part ({@link #lengthPriors}), computed for the slots below {@link #priorsUpTo}. */
  #priors = new Float64Array(0);
  #priorsUpTo = 0;
  /** Per term id: its occurrences over live skills, each weighted by its field's weight (the likelihood's collection). */
  #collection = new Float64Array(1024);
  /** The sum of {@link #collection}: every live skill's field-weighted length. */
  #collectionLength = 0;
  /** Per slot: the query likelihood of the current query (scratch like {@link #scores}), then the fused key. */
  #likelihood = new Float64Array(0);
  #fused = new Float64Array(0);
  /** The field weights as a norms row (for packedTf: a posting's field-weighted count). */
  readonly #fieldWeights: Float64Array;
  /** Per term id, the packed counts of the skill being put (scratch, zero between puts). */
  #scratch = new Uint32Array(1024);

  constructor(weights: IndexWeights = DEFAULT_WEIGHTS) {
    this.#weights = weights;
    this.#fieldWeights = Float64Array.from(FIELDS, (f) => weights.fields[f].weight);
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
    const perField = [indexTerms(doc.name.replace(/[-_.]/g, ' ')), indexTerms(describedAs(doc)), indexTerms(headings), indexTerms(text, MAX_BODY_CHARS)];
    // Each term's counts per field, packed as they will be stored, in a scratch array by term id.
    const held: number[] = [];
    const add = (term: string, f: number) => {
      const t = this.#postings.intern(term);
      if (t >= this.#scratch.length) {
        const grown = new Uint32Array(Math.max(t + 1, this.#scratch.length * 2));
        grown.set(this.#scratch);
        this.#scratch = grown;
      }
      const p = this.#scratch[t];
      if (p === 0) held.push(t);
      this.#scratch[t] = bump(p, f);
    };
    for (let f = 0; f < NFIELDS; f++) for (const t of perField[f]) add(t, f);
    // Phrases: adjacent pairs within the name and within the description.
    for (const f of [0, 1]) for (const p of termPairs(perField[f])) add(p, f);
    // Postings in order of first occurrence, as the terms were met.
    const terms = Int32Array.from(held);
    const counts = Uint32Array.from(held, (t) => this.#scratch[t]);
    for (const t of held) this.#scratch[t] = 0;
    this.#insert(doc.id, doc.name, perField.map((f) => f.length), terms, counts);
  }

  /**
   * Adds a skill read from a saved index by its term ids (replacing the one with the same id): each vocabulary
   * entry is looked up once, when the first skill using it is put back, and its postings are sized then for
   * every saved skill that holds it, so a start from a saved index compares no term text per skill and grows
   * no postings list. The caller checks the ids against the vocabulary (see indexFile.ts).
   */
  putSaved(doc: SavedTokens, vocab: SavedVocabulary): void {
    if (this.#slotOf.has(doc.id)) this.remove(doc.id);
    const map = vocab.ids;
    const from = doc.termIds;
    const terms = new Int32Array(from.length);
    for (let i = 0; i < from.length; i++) {
      const f = from[i];
      let t = map[f];
      if (t < 0) {
        t = map[f] = this.#postings.intern(vocab.terms[f]);
        this.#postings.reserve(t, vocab.df[f]);
      }
      terms[i] = t;
    }
    this.#insert(doc.id, doc.name, doc.lengths, terms, doc.counts);
  }

  /** A skill's tokens as the index holds them (term ids, packed field counts, field lengths), to be saved. */
  tokensOf(id: string): TokenizedDoc | undefined {
    const slot = this.#slotOf.get(id);
    if (slot === undefined) return undefined;
    return {
      id,
      name: this.#names[slot],
      lengths: Array.from(this.#lengths.subarray(slot * NFIELDS, slot * NFIELDS + NFIELDS)),
      terms: this.#terms[slot] as Int32Array,
      counts: this.#termCounts[slot] as Uint32Array,
    };
  }

  /** The index's vocabulary, which {@link tokensOf}'s term ids index (valid until the next put or remove). */
  get vocabulary(): TermVocabulary {
    const postings = this.#postings;
    return { termCount: postings.termCount, termOf: (t) => postings.termOf(t) };
  }

  #insert(id: string, name: string, lengths: readonly number[], terms: Int32Array, counts: Uint32Array): void {
    const slot = this.#ids.length;
    this.#ids.push(id);
    this.#names.push(name);
    if (this.#lengths.length < (slot + 1) * NFIELDS) {
      const grown = new Int32Array(Math.max((slot + 1) * NFIELDS, this.#lengths.length * 2));
      grown.set(this.#lengths);
      this.#lengths = grown;
    }
    for (let f = 0; f < NFIELDS; f++) {
      this.#lengths[slot * NFIELDS + f] = lengths[f];
      this.#lengthSums[f] += lengths[f];
    }
    for (let i = 0; i < terms.length; i++) this.#postings.add(terms[i], slot, counts[i]);
    this.#collect(terms, counts, slot, 1);
    if (this.#alive.length <= slot) {
      const grown = new Uint8Array(Math.max(slot + 1, this.#alive.length * 2));
      grown.set(this.#alive);
      this.#alive = grown;
    }
    this.#alive[slot] = 1;
    this.#generation++;
    this.#terms.push(terms);
    this.#termCounts.push(counts);
    this.#livePostings += terms.length;
    this.#slotOf.set(id, slot);
    const lower = name.toLowerCase();
    let named = this.#byName.get(lower);
    if (!named) this.#byName.set(lower, (named = new Set()));
    named.add(id);
    this.#live++;
    this.#normsFresh = false;
  }

  /** Adds (sign 1) or takes away (-1) one skill's weighted counts and length from the likelihood's collection. */
  #collect(terms: Int32Array, counts: Uint32Array, slot: number, sign: number): void {
    if (this.#collection.length < this.#postings.termCount) {
      const grown = new Float64Array(Math.max(this.#postings.termCount, this.#collection.length * 2));
      grown.set(this.#collection);
      this.#collection = grown;
    }
    const w = this.#fieldWeights;
    for (let i = 0; i < terms.length; i++) this.#collection[terms[i]] += sign * packedTf(counts[i], w, 0);
    this.#collectionLength += sign * this.#weightedLength(slot);
  }

  #weightedLength(slot: number): number {
    let n = 0;
    for (let f = 0; f < NFIELDS; f++) n += this.#fieldWeights[f] * this.#lengths[slot * NFIELDS + f];
    return n;
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
    this.#alive[slot] = 0;
    this.#generation++;
    const terms = this.#terms[slot] as Int32Array;
    for (const t of terms) this.#postings.drop(t);
    this.#collect(terms, this.#termCounts[slot] as Uint32Array, slot, -1);
    for (let f = 0; f < NFIELDS; f++) this.#lengthSums[f] -= this.#lengths[slot * NFIELDS + f];
    this.#terms[slot] = undefined;
    this.#termCounts[slot] = undefined;
    this.#live--;
    this.#deadPostings += terms.length;
    this.#livePostings -= terms.length;
    this.#normsFresh = false;
    if (this.#deadPostings > 1000 && this.#deadPostings > this.#livePostings / 4) this.#compact();
    return true;
  }

  /** Document frequency of an index term (stemmed), over live skills. */
  df(term: string): number {
    const t = this.#postings.idOf(term);
    return t === undefined ? 0 : this.#postings.df(t);
  }

  /** Inverse document frequency of an index term (BM25's, never negative). */
  idf(term: string): number {
    return this.#idfOfDf(this.df(term));
  }

  /** IDF of a vocabulary term by its id (as {@link tokensOf} gives them). */
  idfOfTerm(id: number): number {
    return this.#idfOfDf(this.#postings.df(id));
  }

  /** The vocabulary ids of the query's words that some skill holds (phrases left out), read as a search reads it. */
  queryTermIds(query: string): number[] {
    return this.#queryTerms(query).known.filter(([, , isPair]) => !isPair).map(([t]) => t);
  }

  /** The number of skills IDF counts with. */
  #n(): number {
    return Math.max(this.#live, this.#weights.minCatalogSize ?? 0);
  }

  #idfOfDf(df: number): number {
    return Math.log(1 + (this.#n() - df + 0.5) / (df + 0.5));
  }

  /**
   * The skills that match the query, best first, at most `limit` (every match when omitted). Ties go by
   * name, then id, so the same index and query always give the same order.
   */
  search(query: string, limit = Number.POSITIVE_INFINITY): IndexHit[] {
    const q = this.#queryTerms(query);
    const count = this.#score(q);
    const scores = this.#scores;
    const touched = this.#touched;
    const fusion = this.#weights.likelihood?.fusion ?? 0;
    const key = fusion > 0 ? this.#fuse(count, fusion) : scores;
    const cmp = (a: number, b: number) => key[a] === key[b] ? scores[b] - scores[a] || compareStrings(this.#names[a], this.#names[b]) || compareStrings(this.#ids[a] as string, this.#ids[b] as string) : key[b] - key[a];
    const top = limit < count / 4 ? selectTop(touched, count, limit, cmp) : Array.from(touched.subarray(0, count)).sort(cmp).slice(0, limit);
    const most = this.#maxScore(q);
    const hits = top.map((s) => ({ id: this.#ids[s] as string, score: scores[s], confidence: most > 0 ? Math.min(1, scores[s] / most) : 0 }));
    // Only the touched slots hold a score: clearing them leaves the array zero for the next query.
    for (let i = 0; i < count; i++) scores[touched[i]] = 0;
    if (fusion > 0) for (let i = 0; i < count; i++) this.#likelihood[touched[i]] = 0;
    return hits;
  }

  /**
   * The fused key of every touched slot, keeping BM25F's margins: its score over the best score, plus `fusion`
   * times the query likelihood (finished here) scaled to 0..1 between the lowest and highest of the matches.
   */
  #fuse(count: number, fusion: number): Float64Array {
    const touched = this.#touched;
    const likelihood = this.#likelihood;
    const scores = this.#scores;
    const prior = this.#lengthPriors((this.#weights.likelihood as { mu: number }).mu);
    const wordWeight = this.#likelihoodWeight;
    let best = 0;
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < count; i++) {
      const s = touched[i];
      const l = (likelihood[s] += wordWeight * prior[s]);
      if (l < lo) lo = l;
      if (l > hi) hi = l;
      if (scores[s] > best) best = scores[s];
    }
    if (this.#fused.length < scores.length) this.#fused = new Float64Array(scores.length);
    const fused = this.#fused;
    const span = hi - lo || 1;
    for (let i = 0; i < count; i++) {
      const s = touched[i];
      fused[s] = scores[s] / (best || 1) + (fusion * (likelihood[s] - lo)) / span;
    }
    return fused;
  }

  /** Why one skill scored what it did for the query: each matched term (and phrase) with its fields and share. */
  explain(query: string, id: string): TermMatch[] {
    const slot = this.#slotOf.get(id);
    if (slot === undefined) return [];
    const q = this.#queryTerms(query);
    const norms = this.#norms();
    const out: TermMatch[] = [];
    for (const [t, weight, isPair] of q.known) {
      const packed = this.#postings.countIn(t, slot);
      if (packed === 0) continue;
      const fields: Partial<Record<IndexField, number>> = {};
      FIELDS.forEach((f, k) => {
        const n = unpack(packed, k);
        if (n) fields[f] = n;
      });
      const tf = packedTf(packed, norms, slot * NFIELDS);
      const w = weight * (isPair ? this.#weights.pair : 1) * this.#idfOfDf(this.#postings.df(t));
      out.push({ term: this.#postings.termOf(t), fields, score: (w * tf) / (this.#weights.k1 + tf) });
    }
    return out.sort((a, b) => b.score - a.score || compareStrings(a.term, b.term));
  }

  #queryTerms(query: string): QueryTerms {
    let read = this.#readQueries.get(query);
    if (read) {
      // Most recently used last, so the first key is the one to forget.
      this.#readQueries.delete(query);
    } else {
      read = readQuery(query);
      if (this.#readQueries.size >= READ_QUERIES) this.#readQueries.delete(this.#readQueries.keys().next().value as string);
    }
    this.#readQueries.set(query, read);
    if (read.generation !== this.#generation) {
      const known: [number, number, boolean][] = [];
      for (const [term, w, isPair] of read.terms) {
        const t = this.#postings.idOf(term);
        if (t !== undefined && this.#postings.df(t) > 0) known.push([t, w, isPair]);
      }
      read.known = known;
      read.generation = this.#generation;
    }
    return read;
  }

  /**
   * Scores every skill holding a query term (term at a time) into the shared score array; the slots scored are
   * the first `count` of the shared touched array. The loop reads typed arrays only: no object, string or map
   * per posting.
   */
  #score(q: QueryTerms): number {
    const n = this.#ids.length;
    if (this.#scores.length < n) this.#scores = new Float64Array(Math.max(n, this.#scores.length * 2));
    if (this.#likelihood.length < this.#scores.length) this.#likelihood = new Float64Array(this.#scores.length);
    if (this.#touched.length < n) this.#touched = new Int32Array(Math.max(n, this.#touched.length * 2));
    const scores = this.#scores;
    const touched = this.#touched;
    const alive = this.#alive;
    const norms = this.#norms();
    const k1 = this.#weights.k1;
    const postings = this.#postings;
    let count = 0;
    const slots = postings.slots;
    const counts = postings.counts;
    // The query likelihood's word part, on the same postings: weight * ln(1 + tf / (mu * P(term | catalog))).
    const likely = this.#weights.likelihood?.fusion ? this.#weights.likelihood : undefined;
    const likelihood = this.#likelihood;
    const fieldWeights = this.#fieldWeights;
    this.#likelihoodWeight = 0;
    const cache = likelihoodLogs;
    for (const [id, weight, isPair] of q.known) {
      const w = weight * (isPair ? this.#weights.pair : 1) * this.#idfOfDf(postings.df(id));
      const start = postings.start(id);
      const end = start + postings.length(id);
      if (!likely || isPair) {
        for (let i = start; i < end; i++) {
          const s = slots[i];
          if (alive[s] === 0) continue;
          const tf = packedTf(counts[i], norms, s * NFIELDS);
          const old = scores[s];
          if (old === 0) touched[count++] = s;
          scores[s] = old + (w * tf) / (k1 + tf);
        }
        continue;
      }
      // One pass for both: BM25F's part and the likelihood's, whose logarithm depends on the posting's packed
      // counts alone within one term, so it is taken once per distinct count (most postings share a few).
      this.#likelihoodWeight += weight;
      const smooth = likely.mu * (Math.max(this.#collection[id], 1e-9) / (this.#collectionLength || 1));
      const stamp = nextLogStamp();
      for (let i = start; i < end; i++) {
        const s = slots[i];
        if (alive[s] === 0) continue;
        const p = counts[i];
        const tf = packedTf(p, norms, s * NFIELDS);
        const old = scores[s];
        if (old === 0) touched[count++] = s;
        scores[s] = old + (w * tf) / (k1 + tf);
        const h = Math.imul(p, 0x9e3779b1) >>> LOG_CACHE_SHIFT;
        let l: number;
        if (cache.stamps[h] === stamp && cache.keys[h] === p) l = cache.values[h];
        else {
          l = Math.log(1 + packedTf(p, fieldWeights, 0) / smooth);
          cache.stamps[h] = stamp;
          cache.keys[h] = p;
          cache.values[h] = l;
        }
        likelihood[s] += weight * l;
      }
    }
    return count;
  }

  /**
   * Per slot: ln(mu / (field-weighted length + mu)), the likelihood's length part for one query word. It depends
   * on the slot's own lengths alone, and slots are only appended (a put takes a new slot; compaction renumbers
   * them all and starts over), so only the slots added since the last query are computed.
   */
  #lengthPriors(mu: number): Float64Array {
    const n = this.#ids.length;
    if (this.#priorsUpTo >= n) return this.#priors;
    if (this.#priors.length < n) {
      const grown = new Float64Array(Math.max(n, this.#priors.length * 2));
      grown.set(this.#priors.subarray(0, this.#priorsUpTo));
      this.#priors = grown;
    }
    for (let s = this.#priorsUpTo; s < n; s++) this.#priors[s] = Math.log(mu / (this.#weightedLength(s) + mu));
    this.#priorsUpTo = n;
    return this.#priors;
  }

  /** Per slot and field: weight / (1 - b + b * length / average length), for the current averages. */
  #norms(): Float64Array {
    if (this.#normsFresh) return this.#fieldNorms;
    const n = this.#ids.length;
    if (this.#fieldNorms.length < n * NFIELDS) this.#fieldNorms = new Float64Array(Math.max(n * NFIELDS, this.#fieldNorms.length * 2));
    const out = this.#fieldNorms;
    for (let f = 0; f < NFIELDS; f++) {
      const { weight, b } = this.#weights.fields[FIELDS[f]];
      const avg = this.#lengthSums[f] / this.#live || 1;
      const oneMinusB = 1 - b;
      const bOverAvg = b / avg;
      for (let s = 0; s < n; s++) out[s * NFIELDS + f] = weight / (oneMinusB + bOverAvg * this.#lengths[s * NFIELDS + f]);
    }
    this.#normsFresh = true;
    return out;
  }

  /** The score of a skill that matched every query term (unknown terms count at the highest IDF). */
  #maxScore(q: QueryTerms): number {
    let most = 0;
    const top = this.#idfOfDf(0);
    for (const [term, w] of q.words) {
      const t = this.#postings.idOf(term);
      const df = t === undefined ? 0 : this.#postings.df(t);
      most += w * (df > 0 ? this.#idfOfDf(df) : top);
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
    const termMap = this.#postings.compact(renumber);
    const collection = new Float64Array(Math.max(1024, this.#postings.termCount));
    termMap.forEach((t, old) => {
      if (t >= 0) collection[t] = this.#collection[old];
    });
    this.#collection = collection;
    const lengths = new Int32Array(Math.max(64, next * NFIELDS));
    this.#ids.forEach((id, s) => {
      const r = renumber[s];
      if (r >= 0) for (let f = 0; f < NFIELDS; f++) lengths[r * NFIELDS + f] = this.#lengths[s * NFIELDS + f];
    });
    this.#lengths = lengths;
    const keep = <T>(a: T[]) => a.filter((_, s) => renumber[s] >= 0);
    this.#names = keep(this.#names);
    this.#terms = keep(this.#terms).map((terms) => (terms as Int32Array).map((t) => termMap[t]));
    this.#termCounts = keep(this.#termCounts);
    this.#ids = keep(this.#ids);
    this.#alive = new Uint8Array(Math.max(64, next)).fill(1, 0, next);
    this.#generation++;
    for (const [id, s] of this.#slotOf) this.#slotOf.set(id, renumber[s]);
    this.#scratch = new Uint32Array(Math.max(1024, this.#postings.termCount));
    this.#deadPostings = 0;
    this.#normsFresh = false;
    this.#priorsUpTo = 0;
  }
}

/** Bits of the likelihood's per-term logarithm cache (2^8 entries, direct-mapped by a hash of the packed counts). */
const LOG_CACHE_SHIFT = 24;
/** One term's logarithms by packed counts, valid for the current stamp (a new term takes a new stamp). */
const likelihoodLogs = { stamps: new Int32Array(1 << (32 - LOG_CACHE_SHIFT)), keys: new Uint32Array(1 << (32 - LOG_CACHE_SHIFT)), values: new Float64Array(1 << (32 - LOG_CACHE_SHIFT)), stamp: 0 };

/** A stamp no entry of the cache holds (the stamps start again, the cache cleared, before they would wrap). */
function nextLogStamp(): number {
  const cache = likelihoodLogs;
  if (cache.stamp >= 0x3fffffff) {
    cache.stamps.fill(0);
    cache.stamp = 0;
  }
  return ++cache.stamp;
}

/** A query's terms and adjacent pairs with their weights (a word said n times weighs 1 + ln n). */
/**
 * The text the index reads as a skill's description: its own, or, when it has none (blank), its body's lead
 * paragraph (failureAnalysis.ts: at 10,000 skills such a skill was ranked by its body alone, below skills that
 * state the same purpose in a description).
 */
export function describedAs(doc: IndexDoc): string {
  return doc.description.trim() ? doc.description : leadParagraph(doc.body ?? '');
}

function readQuery(query: string): ReadQuery {
  const src = query.length > MAX_QUERY_CHARS ? query.slice(0, MAX_QUERY_CHARS) : query;
  const list = indexTerms(src.replace(/[-_]/g, ' '));
  const words = new Map<string, number>();
  for (const t of list) words.set(t, (words.get(t) ?? 0) + 1);
  const pairs = new Map<string, number>();
  for (const p of termPairs(list)) pairs.set(p, (pairs.get(p) ?? 0) + 1);
  // A word said several times counts more, with diminishing returns.
  for (const m of [words, pairs]) for (const [t, n] of m) m.set(t, 1 + Math.log(n));
  const terms: [string, number, boolean][] = [];
  for (const [m, isPair] of [[words, false], [pairs, true]] as const) for (const [term, w] of m) terms.push([term, w, isPair]);
  return { words, terms, known: [], generation: -1 };
}
