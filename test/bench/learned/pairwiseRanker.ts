/**
 * Learning to rank from groups of candidates with their right ones (for learnedRankExperiment.ts): a linear model
 * fit by a pairwise logistic loss (RankNet's, each right candidate against each other one) with SGD and L2, on
 * standardised features; and boosted regression stumps on the same pairwise gradient. A seeded generator makes
 * every run learn the same weights. Not part of the product.
 */
import { seededRandom } from '../../support/seededRandom';

/** One request's candidates: a feature row each, and the positions of the right ones. */
export interface RankGroup {
  x: number[][];
  pos: number[];
}

/** A seeded generator, so every run learns the same weights. */
export const rng = seededRandom;
export function shuffle<T>(xs: T[], r: () => number): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [xs[i], xs[j]] = [xs[j], xs[i]];
  }
  return xs;
}

export interface Model {
  mean: number[];
  sd: number[];
  w: number[];
}

export function train(ex: RankGroup[], epochs = 30, lr = 0.05, l2 = 1e-4): Model {
  const k = ex[0]?.x[0]?.length ?? 0;
  const mean = new Array(k).fill(0);
  const sd = new Array(k).fill(0);
  let n = 0;
  for (const e of ex) for (const x of e.x) {
    n++;
    for (let j = 0; j < k; j++) mean[j] += x[j];
  }
  for (let j = 0; j < k; j++) mean[j] /= n || 1;
  for (const e of ex) for (const x of e.x) for (let j = 0; j < k; j++) sd[j] += (x[j] - mean[j]) ** 2;
  for (let j = 0; j < k; j++) sd[j] = Math.sqrt(sd[j] / (n || 1)) || 1;
  const z = (x: number[]) => x.map((v, j) => (v - mean[j]) / sd[j]);
  const data = ex.flatMap((e) => e.pos.map((p) => ({ p: z(e.x[p]), negs: e.x.filter((_, i) => !e.pos.includes(i)).map(z) })));
  const w = new Array(k).fill(0);
  const r = rng(7);
  for (let ep = 0; ep < epochs; ep++) {
    shuffle(data, r);
    for (const d of data) {
      for (const q of d.negs) {
        let m = 0;
        for (let j = 0; j < k; j++) m += w[j] * (d.p[j] - q[j]);
        const g = -1 / (1 + Math.exp(m));
        for (let j = 0; j < k; j++) w[j] -= (lr / d.negs.length) * (g * (d.p[j] - q[j]) + l2 * w[j]);
      }
    }
  }
  return { mean, sd, w };
}

/**
 * Boosted regression stumps on the pairwise logistic gradient (RankNet's lambdas, a LambdaMART without the metric
 * weighting): each round fits one split of one feature (16 quantile thresholds a feature) to the candidates'
 * lambdas, by least squares, and adds it with shrinkage. Captures what a linear model cannot (thresholds, bends).
 */
export interface Stump { j: number; at: number; lo: number; hi: number }
export function trainBoosted(ex: RankGroup[], rounds = Number(process.env.ROUNDS ?? 150), shrink = 0.1): Stump[] {
  const rows: number[][] = [];
  const groups: { pos: number[]; negs: number[] }[] = [];
  for (const e of ex) {
    const base = rows.length;
    e.x.forEach((x) => rows.push(x));
    const all = e.x.map((_, i) => base + i);
    groups.push({ pos: e.pos.map((p) => base + p), negs: all.filter((i) => !e.pos.includes(i - base)) });
  }
  const k = ex[0]?.x[0]?.length ?? 0;
  const cuts = Array.from({ length: k }, (_, j) => {
    const v = rows.map((r) => r[j]).sort((a, b) => a - b);
    return [...new Set(Array.from({ length: 15 }, (_, q) => v[Math.floor(((q + 1) * v.length) / 16)]))];
  });
  const f = new Float64Array(rows.length);
  const stumps: Stump[] = [];
  for (let round = 0; round < rounds; round++) {
    const lam = new Float64Array(rows.length);
    for (const g of groups) for (const p of g.pos) for (const q of g.negs) {
      const d = 1 / (1 + Math.exp(f[p] - f[q])) / g.negs.length;
      lam[p] += d;
      lam[q] -= d;
    }
    let best: Stump | undefined;
    let bestGain = 0;
    let total = 0;
    for (let i = 0; i < rows.length; i++) total += lam[i];
    for (let j = 0; j < k; j++) for (const at of cuts[j]) {
      let sl = 0;
      let nl = 0;
      for (let i = 0; i < rows.length; i++) if (rows[i][j] <= at) {
        sl += lam[i];
        nl++;
      }
      const nh = rows.length - nl;
      if (!nl || !nh) continue;
      const gain = (sl * sl) / nl + ((total - sl) * (total - sl)) / nh;
      if (gain > bestGain) {
        bestGain = gain;
        best = { j, at, lo: (shrink * sl) / nl, hi: (shrink * (total - sl)) / nh };
      }
    }
    if (!best) break;
    stumps.push(best);
    for (let i = 0; i < rows.length; i++) f[i] += rows[i][best.j] <= best.at ? best.lo : best.hi;
  }
  return stumps;
}
export const boostedScore = (m: Stump[], x: number[]) => m.reduce((s, t) => s + (x[t.j] <= t.at ? t.lo : t.hi), 0);

export const scoreOf = (m: Model, x: number[]) => x.reduce((s, v, j) => s + m.w[j] * ((v - m.mean[j]) / m.sd[j]), 0);
