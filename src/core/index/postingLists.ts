/**
 * The skill index's postings: a vocabulary of term ids, and every term's postings (the skill slots that hold the
 * term, and its packed per-field counts) as one region of two shared typed arrays, the arena, with a document
 * frequency over live skills. One arena instead of two arrays per term keeps a 10,000-skill index (some 200,000
 * terms) to a handful of allocations, so building or loading it leaves the garbage collector almost nothing to
 * trace or free, and a query walks a term's postings as a run of one array.
 */
import { lowerBound } from '../text/lowerBound';

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
  /** Per term: where its region starts in the arena, postings in it, room in it, live skills holding it. */
  #start: Int32Array = new Int32Array(1024);
  #length: Int32Array = new Int32Array(1024);
  #room: Int32Array = new Int32Array(1024);
  #df: Int32Array = new Int32Array(1024);
  #slots: Int32Array = new Int32Array(4096);
  #counts: Uint32Array = new Uint32Array(4096);
  /** Arena entries in use (regions, and the room of regions left behind when a term moved). */
  #used = 0;
  /** Arena entries left behind by terms that moved to a larger region. */
  #abandoned = 0;

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
      if (id === this.#start.length) {
        const cap = id * 2;
        this.#start = grownInt32(this.#start, cap);
        this.#length = grownInt32(this.#length, cap);
        this.#room = grownInt32(this.#room, cap);
        this.#df = grownInt32(this.#df, cap);
      }
      // Fresh entries are zero: no region yet.
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

  /** Makes room for `more` postings of the term beyond those it has (none is moved again until they are added). */
  reserve(id: number, more: number): void {
    if (this.#room[id] - this.#length[id] < more) this.#move(id, this.#length[id] + more);
  }

  /** Appends a posting (slots only grow: a new skill always takes a slot above every other). */
  add(id: number, slot: number, packed: number): void {
    const n = this.#length[id];
    if (n === this.#room[id]) this.#move(id, Math.max(4, n * 2));
    const at = this.#start[id] + n;
    this.#slots[at] = slot;
    this.#counts[at] = packed;
    this.#length[id] = n + 1;
    this.#df[id]++;
  }

  /** A skill holding the term was removed (its posting stays, skipped, until compaction). */
  drop(id: number): void {
    this.#df[id]--;
  }

  /**
   * The arena's slots: the term's postings are `slots[start(id) + i]` for i < `length(id)` (dead slots
   * included). Valid until the next add, reserve or compaction (which may replace the arrays).
   */
  get slots(): Int32Array {
    return this.#slots;
  }

  /** The arena's packed counts, in the order of {@link slots}. */
  get counts(): Uint32Array {
    return this.#counts;
  }

  /** Where the term's postings start in the arena. */
  start(id: number): number {
    return this.#start[id];
  }

  /** How many postings the term has (dead slots included). */
  length(id: number): number {
    return this.#length[id];
  }

  /** The packed counts of the term in one slot, or 0 (a binary search: a term's postings are in slot order). */
  countIn(id: number, slot: number): number {
    const start = this.#start[id];
    const length = this.#length[id];
    const slots = this.#slots;
    const at = start + lowerBound(length, (k) => slots[start + k] < slot);
    return at < start + length && slots[at] === slot ? this.#counts[at] : 0;
  }

  /** Gives the term a region of `room` entries at the end of the arena, its postings copied there. */
  #move(id: number, room: number): void {
    const from = this.#start[id];
    const n = this.#length[id];
    // The last region grows where it is.
    if (this.#room[id] > 0 && from + this.#room[id] === this.#used) {
      this.#ensure(from + room);
      this.#used = from + room;
      this.#room[id] = room;
      return;
    }
    // Left-behind room is taken back by packing the arena once it is as large as what is in use.
    if (this.#abandoned > 4096 && this.#abandoned > this.#used / 2) this.#pack();
    const at = this.#used;
    this.#ensure(at + room);
    this.#slots.copyWithin(at, this.#start[id], this.#start[id] + n);
    this.#counts.copyWithin(at, this.#start[id], this.#start[id] + n);
    this.#abandoned += this.#room[id];
    this.#start[id] = at;
    this.#room[id] = room;
    this.#used = at + room;
  }

  #ensure(size: number): void {
    if (size <= this.#slots.length) return;
    const cap = Math.max(size, this.#slots.length * 2);
    const slots = new Int32Array(cap);
    slots.set(this.#slots.subarray(0, this.#used));
    const counts = new Uint32Array(cap);
    counts.set(this.#counts.subarray(0, this.#used));
    this.#slots = slots;
    this.#counts = counts;
  }

  /** Copies every region to a fresh arena with no gaps (each term keeps its room). */
  #pack(): void {
    let size = 0;
    for (let t = 0; t < this.#text.length; t++) size += this.#room[t];
    const slots = new Int32Array(Math.max(4096, size * 2));
    const counts = new Uint32Array(slots.length);
    let at = 0;
    for (let t = 0; t < this.#text.length; t++) {
      const from = this.#start[t];
      slots.set(this.#slots.subarray(from, from + this.#length[t]), at);
      counts.set(this.#counts.subarray(from, from + this.#length[t]), at);
      this.#start[t] = at;
      at += this.#room[t];
    }
    this.#slots = slots;
    this.#counts = counts;
    this.#used = at;
    this.#abandoned = 0;
  }

  /**
   * Keeps the postings of live slots under their new numbers (`renumber[old]`, -1 for dead) and drops terms
   * no live skill holds. Returns the new id of each old term id (-1 when dropped).
   */
  compact(renumber: Int32Array): Int32Array {
    const terms = this.#text.length;
    const termMap = new Int32Array(terms).fill(-1);
    let kept = 0;
    let size = 0;
    for (let t = 0; t < terms; t++) {
      if (this.#df[t] === 0) continue;
      termMap[t] = kept++;
      size += this.#df[t];
    }
    const text: string[] = new Array(kept);
    const start = new Int32Array(Math.max(1024, kept));
    const length = new Int32Array(start.length);
    const df = new Int32Array(start.length);
    const slots = new Int32Array(Math.max(4096, size));
    const counts = new Uint32Array(slots.length);
    this.#ids.clear();
    let at = 0;
    for (let t = 0; t < terms; t++) {
      const k = termMap[t];
      if (k < 0) continue;
      start[k] = at;
      const from = this.#start[t];
      const end = from + this.#length[t];
      for (let i = from; i < end; i++) {
        const r = renumber[this.#slots[i]];
        if (r >= 0) {
          slots[at] = r;
          counts[at++] = this.#counts[i];
        }
      }
      length[k] = at - start[k];
      df[k] = this.#df[t];
      text[k] = this.#text[t];
      this.#ids.set(this.#text[t], k);
    }
    this.#text = text;
    this.#start = start;
    this.#length = length;
    // Each region is full: the next posting of a term moves it to the end.
    this.#room = length.slice();
    this.#df = df;
    this.#slots = slots;
    this.#counts = counts;
    this.#used = at;
    this.#abandoned = 0;
    return termMap;
  }
}

function grownInt32(a: Int32Array, size: number): Int32Array {
  const out = new Int32Array(size);
  out.set(a);
  return out;
}
