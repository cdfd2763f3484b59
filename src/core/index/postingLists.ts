/**
 * The skill index's postings: a vocabulary of term ids, and per term id two typed arrays (the skill slots that
 * hold the term, and its packed per-field counts) with a document frequency over live skills. Storing numbers
 * in typed arrays keyed by id keeps a 10,000-skill index to a few allocations per term instead of a boxed array
 * entry per posting, and lets a query walk a term's postings without a string lookup per skill.
 */

// Field counts packed in one 32-bit number: name 6 bits, description 8, headings 6, body 12 (each capped).
export const CAPS = [63, 255, 63, 4095] as const;
export const SHIFTS = [0, 6, 14, 20] as const;
const STEPS = SHIFTS.map((s) => 2 ** s);

/**
 * The weighted, length-normalised count of one packed posting over the four fields: the sum of each field's
 * count times `norms[at + field]`. The shifts and masks are written out (they are {@link SHIFTS} and {@link CAPS})
 * because this runs once per posting of every query term; zero fields are skipped, which leaves the sum as the
 * field-by-field one.
 */
export function packedTf(p: number, norms: Float64Array, at: number): number {
  return (p & 63) * norms[at] + ((p >>> 6) & 255) * norms[at + 1] + ((p >>> 14) & 63) * norms[at + 2] + (p >>> 20) * norms[at + 3];
}

/** The count of field `f` in a packed posting. */
export const unpack = (p: number, f: number): number => (p >>> SHIFTS[f]) & CAPS[f];

/** `packed` with one more occurrence in field `f` (unchanged once the field's count is at its cap). */
export const bump = (packed: number, f: number): number => (((packed >>> SHIFTS[f]) & CAPS[f]) < CAPS[f] ? packed + STEPS[f] : packed);

export class PostingLists {
  readonly #ids = new Map<string, number>();
  #text: string[] = [];
  #slots: Int32Array[] = [];
  #counts: Uint32Array[] = [];
  #lengths: number[] = [];
  #df: number[] = [];

  /** Terms in the vocabulary (some may hold no live skill until the next compaction). */
  get termCount(): number {
    return this.#text.length;
  }

  /** The id of a term, or undefined when no skill ever held it. */
  idOf(term: string): number | undefined {
    return this.#ids.get(term);
  }

  /** The id of a term, added to the vocabulary when new. */
  intern(term: string): number {
    let id = this.#ids.get(term);
    if (id === undefined) {
      id = this.#text.length;
      this.#ids.set(term, id);
      this.#text.push(term);
      this.#slots.push(EMPTY_SLOTS);
      this.#counts.push(EMPTY_COUNTS);
      this.#lengths.push(0);
      this.#df.push(0);
    }
    return id;
  }

  termOf(id: number): string {
    return this.#text[id];
  }

  /** Live skills that hold the term. */
  df(id: number): number {
    return this.#df[id];
  }

  /** Makes room for `more` postings of the term beyond those it has (none is grown again until they are added). */
  reserve(id: number, more: number): void {
    const n = this.#lengths[id];
    if (this.#slots[id].length >= n + more) return;
    const slots = new Int32Array(n + more);
    slots.set(this.#slots[id].subarray(0, n));
    const counts = new Uint32Array(n + more);
    counts.set(this.#counts[id].subarray(0, n));
    this.#slots[id] = slots;
    this.#counts[id] = counts;
  }

  /** Appends a posting (slots only grow: a new skill always takes a slot above every other). */
  add(id: number, slot: number, packed: number): void {
    const n = this.#lengths[id];
    if (n === this.#slots[id].length) {
      const cap = Math.max(4, n * 2);
      const slots = new Int32Array(cap);
      slots.set(this.#slots[id]);
      const counts = new Uint32Array(cap);
      counts.set(this.#counts[id]);
      this.#slots[id] = slots;
      this.#counts[id] = counts;
    }
    this.#slots[id][n] = slot;
    this.#counts[id][n] = packed;
    this.#lengths[id] = n + 1;
    this.#df[id]++;
  }

  /** A skill holding the term was removed (its posting stays, skipped, until compaction). */
  drop(id: number): void {
    this.#df[id]--;
  }

  /** The skill slots of the term's postings (`slotsOf(id)[i]` holds `countsOf(id)[i]` for i < `length(id)`, dead slots included); no object is made per call. */
  slotsOf(id: number): Int32Array {
    return this.#slots[id];
  }

  /** The packed counts of the term's postings, in the order of {@link slotsOf}. */
  countsOf(id: number): Uint32Array {
    return this.#counts[id];
  }

  /** How many postings the term has (dead slots included). */
  length(id: number): number {
    return this.#lengths[id];
  }

  /** The packed counts of the term in one slot, or 0. */
  countIn(id: number, slot: number): number {
    const slots = this.#slots[id];
    const n = this.#lengths[id];
    for (let i = 0; i < n; i++) if (slots[i] === slot) return this.#counts[id][i];
    return 0;
  }

  /**
   * Keeps the postings of live slots under their new numbers (`renumber[old]`, -1 for dead) and drops terms
   * no live skill holds. Returns the new id of each old term id (-1 when dropped).
   */
  compact(renumber: Int32Array): Int32Array {
    const termMap = new Int32Array(this.#text.length).fill(-1);
    const text: string[] = [];
    const slotsOut: Int32Array[] = [];
    const countsOut: Uint32Array[] = [];
    const lengths: number[] = [];
    const df: number[] = [];
    this.#ids.clear();
    for (let t = 0; t < this.#text.length; t++) {
      if (this.#df[t] === 0) continue;
      const from = this.#slots[t];
      const fromCounts = this.#counts[t];
      const slots = new Int32Array(this.#df[t]);
      const counts = new Uint32Array(this.#df[t]);
      let k = 0;
      for (let i = 0; i < this.#lengths[t]; i++) {
        const r = renumber[from[i]];
        if (r >= 0) {
          slots[k] = r;
          counts[k++] = fromCounts[i];
        }
      }
      termMap[t] = text.length;
      this.#ids.set(this.#text[t], text.length);
      text.push(this.#text[t]);
      slotsOut.push(slots);
      countsOut.push(counts);
      lengths.push(k);
      df.push(this.#df[t]);
    }
    this.#text = text;
    this.#slots = slotsOut;
    this.#counts = countsOut;
    this.#lengths = lengths;
    this.#df = df;
    return termMap;
  }
}

const EMPTY_SLOTS = new Int32Array(0);
const EMPTY_COUNTS = new Uint32Array(0);
