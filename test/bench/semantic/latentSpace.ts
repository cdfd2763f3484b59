/**
 * A latent semantic space learned from the catalog itself (LSA: a truncated SVD of the skills' tf-idf matrix,
 * Deerwester et al. 1990), computed at index time with a randomized range finder (Halko, Martinsson & Tropp
 * 2011). No model is shipped or downloaded: words that appear in the same skills end up near each other, so a
 * request can be matched to a skill that says the same thing in other words. Plain typed-array arithmetic on the
 * CPU; bounded in documents, terms per document, dimensions and iterations. Used by the re-rank experiment beside
 * it (rerankExperiment.ts); not part of the product, which kept the lexical ranking (it did not hold on half B).
 */
import { seededRandom } from '../../support/seededRandom';

/** A text as weighted terms (term → weight, e.g. log tf times idf). */
export type TermWeights = ReadonlyMap<string, number>;

export interface LatentOptions {
  /** Dimensions kept (default 96). */
  dims?: number;
  /** Extra random directions for the range finder (default 16). */
  oversample?: number;
  /** Power iterations (default 2). */
  power?: number;
  /** Seed of the deterministic random directions (default 1). */
  seed?: number;
}

/** Most documents one space is learned from (more are sampled evenly). */
export const MAX_LATENT_DOCS = 50_000;
/** Most terms of one document that count (the heaviest). */
export const MAX_LATENT_TERMS_PER_DOC = 400;

/** Term vectors of a learned space: a document or a query is embedded as the weighted sum of its terms' vectors. */
export class LatentSpace {
  readonly dims: number;
  readonly #rows: Map<string, number>;
  readonly #vectors: Float32Array;

  private constructor(dims: number, rows: Map<string, number>, vectors: Float32Array) {
    this.dims = dims;
    this.#rows = rows;
    this.#vectors = vectors;
  }

  /** Terms the space knows. */
  get terms(): number {
    return this.#rows.size;
  }

  /** The unit vector of a text (all zeros when none of its terms is known). */
  embed(terms: TermWeights): Float32Array {
    const k = this.dims;
    const out = new Float32Array(k);
    for (const [term, w] of terms) {
      const r = this.#rows.get(term);
      if (r === undefined) continue;
      const at = r * k;
      for (let j = 0; j < k; j++) out[j] += w * this.#vectors[at + j];
    }
    normalize(out);
    return out;
  }

  /**
   * Learns a space from documents (each a map of weighted terms). Only terms found in at least two documents are
   * kept. Deterministic for the same documents in the same order.
   */
  static learn(docs: readonly TermWeights[], options: LatentOptions = {}): LatentSpace {
    const sample = docs.length > MAX_LATENT_DOCS ? docs.filter((_, i) => i % Math.ceil(docs.length / MAX_LATENT_DOCS) === 0) : docs;
    // Each document's heaviest terms only; the vocabulary: those terms found in two documents or more.
    const heaviest = sample.map((d) => [...d].filter(([, w]) => w > 0).sort((a, b) => b[1] - a[1]).slice(0, MAX_LATENT_TERMS_PER_DOC));
    const df = new Map<string, number>();
    for (const d of heaviest) for (const [t] of d) df.set(t, (df.get(t) ?? 0) + 1);
    const rows = new Map<string, number>();
    for (const [t, n] of df) if (n >= 2) rows.set(t, rows.size);
    const nDocs = sample.length;
    const nTerms = rows.size;
    const want = Math.max(1, Math.min(options.dims ?? 96, nDocs, nTerms));
    const l = Math.min(want + (options.oversample ?? 16), nDocs, nTerms);
    if (nTerms === 0 || nDocs === 0) return new LatentSpace(want, new Map(), new Float32Array(0));
    // The documents as unit rows of a sparse matrix (CSR).
    const start = new Int32Array(nDocs + 1);
    const cols: number[] = [];
    const vals: number[] = [];
    heaviest.forEach((d, i) => {
      const kept = d.filter(([t]) => rows.has(t));
      let sq = 0;
      for (const [, w] of kept) sq += w * w;
      const norm = Math.sqrt(sq) || 1;
      for (const [t, w] of kept) {
        cols.push(rows.get(t) as number);
        vals.push(w / norm);
      }
      start[i + 1] = cols.length;
    });
    const A = { start, cols: Int32Array.from(cols), vals: Float64Array.from(vals), nDocs, nTerms };
    // Range finder: Y = A·Ω, then power iterations Y = A·(Aᵀ·Y), orthonormalised in between.
    const rand = seededRandom(options.seed ?? 1);
    const omega = new Float64Array(nTerms * l);
    for (let i = 0; i < omega.length; i++) omega[i] = gaussian(rand);
    let Y = mulA(A, omega, l);
    orthonormalize(Y, nDocs, l);
    for (let p = 0; p < (options.power ?? 2); p++) {
      const Z = mulAt(A, Y, l);
      orthonormalize(Z, nTerms, l);
      Y = mulA(A, Z, l);
      orthonormalize(Y, nDocs, l);
    }
    // B = Qᵀ·A (l × terms), stored as Bᵀ (terms × l); B·Bᵀ = Ũ Σ² Ũᵀ; term vectors V = Bᵀ·Ũ·Σ⁻¹ (the top `want`).
    const Bt = mulAt(A, Y, l);
    const G = new Float64Array(l * l);
    for (let t = 0; t < nTerms; t++) {
      const at = t * l;
      for (let i = 0; i < l; i++) {
        const bi = Bt[at + i];
        if (bi === 0) continue;
        for (let j = i; j < l; j++) G[i * l + j] += bi * Bt[at + j];
      }
    }
    for (let i = 0; i < l; i++) for (let j = 0; j < i; j++) G[i * l + j] = G[j * l + i];
    const { values, vectors } = symmetricEigen(G, l);
    const order = [...values.keys()].sort((a, b) => values[b] - values[a]).slice(0, want);
    const k = order.length;
    const out = new Float32Array(nTerms * k);
    for (let t = 0; t < nTerms; t++) {
      for (let c = 0; c < k; c++) {
        const e = order[c];
        const sigma = Math.sqrt(Math.max(values[e], 0));
        if (sigma < 1e-9) continue;
        let s = 0;
        for (let i = 0; i < l; i++) s += Bt[t * l + i] * vectors[i * l + e];
        out[t * k + c] = s / sigma;
      }
    }
    return new LatentSpace(k, rows, out);
  }
}

/** Cosine of two unit vectors. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

function normalize(v: Float32Array): void {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  if (s === 0) return;
  const inv = 1 / Math.sqrt(s);
  for (let i = 0; i < v.length; i++) v[i] *= inv;
}

interface Csr {
  start: Int32Array;
  cols: Int32Array;
  vals: Float64Array;
  nDocs: number;
  nTerms: number;
}

/** A (docs × terms) times X (terms × l), row-major. */
function mulA(A: Csr, X: Float64Array, l: number): Float64Array {
  const out = new Float64Array(A.nDocs * l);
  for (let d = 0; d < A.nDocs; d++) {
    const o = d * l;
    for (let p = A.start[d]; p < A.start[d + 1]; p++) {
      const x = A.cols[p] * l;
      const v = A.vals[p];
      for (let j = 0; j < l; j++) out[o + j] += v * X[x + j];
    }
  }
  return out;
}

/** Aᵀ (terms × docs) times Y (docs × l), row-major. */
function mulAt(A: Csr, Y: Float64Array, l: number): Float64Array {
  const out = new Float64Array(A.nTerms * l);
  for (let d = 0; d < A.nDocs; d++) {
    const y = d * l;
    for (let p = A.start[d]; p < A.start[d + 1]; p++) {
      const o = A.cols[p] * l;
      const v = A.vals[p];
      for (let j = 0; j < l; j++) out[o + j] += v * Y[y + j];
    }
  }
  return out;
}

/** Modified Gram-Schmidt on the l columns of an (n × l) row-major matrix, in place (on a column-major copy). */
function orthonormalize(M: Float64Array, n: number, l: number): void {
  const cols: Float64Array[] = [];
  for (let j = 0; j < l; j++) {
    const c = new Float64Array(n);
    for (let r = 0; r < n; r++) c[r] = M[r * l + j];
    for (const q of cols) {
      let dot = 0;
      for (let r = 0; r < n; r++) dot += q[r] * c[r];
      for (let r = 0; r < n; r++) c[r] -= dot * q[r];
    }
    let s = 0;
    for (let r = 0; r < n; r++) s += c[r] * c[r];
    const inv = s > 1e-24 ? 1 / Math.sqrt(s) : 0;
    for (let r = 0; r < n; r++) c[r] *= inv;
    cols.push(c);
  }
  for (let j = 0; j < l; j++) {
    const c = cols[j];
    for (let r = 0; r < n; r++) M[r * l + j] = c[r];
  }
}

/** Eigen-decomposition of a small symmetric matrix by cyclic Jacobi rotations (bounded sweeps). */
function symmetricEigen(S: Float64Array, n: number): { values: number[]; vectors: Float64Array } {
  const a = Float64Array.from(S);
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  for (let sweep = 0; sweep < 50; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p * n + q] ** 2;
    if (off < 1e-22) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q];
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (a[q * n + q] - a[p * n + p]) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p];
          const akq = a[k * n + q];
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k];
          const aqk = a[q * n + k];
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k * n + p];
          const vkq = v[k * n + q];
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  return { values: [...Array(n).keys()].map((i) => a[i * n + i]), vectors: v };
}

function gaussian(rand: () => number): number {
  const u = rand() || 1e-12;
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}
