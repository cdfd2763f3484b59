// Issue 24 experiment (not part of `npm run bench`): does a diversified order of the skill index's best matches
// (results after the first cover the parts of the request the earlier ones do not) lift find_skills' Recall@5
// without lowering Hit@1? Every setting is printed for half A (even positions in tasks.jsonl) and half B (odd);
// weights are read off A and must hold on B.
//
//   node --max-old-space-size=6000 --import tsx test/bench/diversifyExperiment.ts [sizes] [variants]
//
// sizes: comma list of 100, 1000, 10000, full (default 1000,10000); pools as the routing bench builds them.
// variants: comma list of product, covk, cov, dd, dedup, max, xqp, rrf, aug (see below).
//
// Results (2026-11-27, load 15-27; Recall@5 A | B; Hit@1 unchanged wherever the first result is kept):
//   score order (today)              100: 93.5 | 94.1   1,000: 91.6 | 86.2   10,000: 79.0 | 72.5   full: 77.5 | 70.0
//   covk a0.2 b0.4 n20 (chosen on A) 100: 93.8 | 94.6   1,000: 93.3 | 88.1   10,000: 80.9 | 77.6   full: 80.4 | 69.8
//   + near copies after (product)    100: 93.8 | 94.6   1,000: 93.3 | 88.1   10,000: 80.9 | 75.1   full: 80.4 | 67.4
//   Every skill the near-copy step moved out of the first 5 has a copy (>= 95% of its terms) from another publisher
//   above it: the benchmark counts one of two identical skills.
//   Tried and not kept (no gain on A, or a loss at 1,000): xQuAD over query terms (n 20/50, lambda 0.3-0.7), xQuAD
//   over the request's sentences, CombMAX of sentence searches, reciprocal-rank fusion of sentence searches, each
//   sentence's best added after the first 20/40 (no Recall@100 gain, so no gain for <available_skills>), and
//   near copies judged on descriptions alone (1,000 A 91.6 -> 90.3).
import { SkillIndex } from '../../src/core/index/skillIndex';
import { searchInOrder } from '../../src/core/index/searchOrder';
import { indexTerms } from '../../src/core/index/indexTokens';
import { unpack } from '../../src/core/index/postingLists';
import { fieldShare, loadRouting, poolFor, routingDataPresent, type PoolSkill, type RoutingTask } from './routingData';

if (!routingDataPresent()) {
  console.log('experiment not run: the routing data is not present (set ROUTING_DIR)');
  process.exit(0);
}

type Variant = (index: SkillIndex, query: string) => string[];
const TOP = 100;

/** The request's parts: lines and sentences with at least `minTerms` index terms. */
function aspects(query: string, minTerms: number): string[] {
  const parts = query
    .split(/\n+|(?<=[.!?;:])\s+/)
    .map((p) => p.trim())
    .filter((p) => indexTerms(p).length >= minTerms);
  return [...new Set(parts)];
}

/** Reciprocal rank fusion of the whole request's ranking with each part's ranking; the first stays the whole request's best. */
function aspectRrf(wPart: number, k: number, minTerms: number, depth = 30): Variant {
  return (index, query) => {
    const hits = index.search(query, TOP);
    if (!hits.length) return [];
    const parts = aspects(query, minTerms);
    const score = new Map<string, number>();
    hits.forEach((h, r) => score.set(h.id, 1 / (k + r)));
    if (parts.length > 1) {
      for (const p of parts) {
        index.search(p, depth).forEach((h, r) => score.set(h.id, (score.get(h.id) ?? 0) + wPart / parts.length / (k + r)));
      }
    }
    const first = hits[0].id;
    const rest = [...score.keys()].filter((id) => id !== first).sort((a, b) => (score.get(b) as number) - (score.get(a) as number));
    return [first, ...rest];
  };
}

/** Each part's scores of the candidates, normalised by the part's best (0..1), and the part's weight. */
function partScores(index: SkillIndex, query: string, minTerms: number, depth: number, weighBy: string) {
  const parts = aspects(query, minTerms);
  return parts.map((p) => {
    const hits = index.search(p, depth);
    const top = hits[0]?.score || 1;
    const w = weighBy === 'conf' ? hits[0]?.confidence ?? 0 : weighBy === 'score' ? hits[0]?.score ?? 0 : 1;
    return { w, of: new Map(hits.map((h) => [h.id, h.score / top])) };
  });
}

/** CombMAX: whole-request score (over the best) plus beta times the best normalised part score. */
function maxFuse(beta: number, depth: number, minTerms: number, weighBy = 'one'): Variant {
  return (index, query) => {
    const hits = index.search(query, TOP);
    if (!hits.length) return [];
    const parts = partScores(index, query, minTerms, depth, weighBy);
    const wmax = Math.max(1e-9, ...parts.map((p) => p.w));
    const top = hits[0].score || 1;
    const score = new Map<string, number>();
    for (const h of hits) score.set(h.id, h.score / top);
    for (const p of parts) for (const [id, s] of p.of) {
      const v = beta * s * (p.w / wmax);
      score.set(id, (score.get(id) ?? 0) + 0);
      const cur = (score.get(id) as number);
      void cur;
    }
    // best part score per candidate
    const best = new Map<string, number>();
    for (const p of parts) for (const [id, s] of p.of) best.set(id, Math.max(best.get(id) ?? 0, s * (p.w / wmax)));
    const final = new Map<string, number>();
    for (const id of new Set([...score.keys(), ...best.keys()])) final.set(id, (score.get(id) ?? 0) + beta * (best.get(id) ?? 0));
    const first = hits[0].id;
    const rest = [...final.keys()].filter((id) => id !== first).sort((a, b) => (final.get(b) as number) - (final.get(a) as number));
    return [first, ...rest];
  };
}

/** xQuAD over the request's parts: gain = (1 - l) rel + l * sum_a w_a P(d|a) prod_chosen (1 - P(s|a)). */
function xquadParts(lambda: number, depth: number, minTerms: number, weighBy = 'one', n = 50): Variant {
  return (index, query) => {
    const hits = index.search(query, TOP);
    if (!hits.length) return [];
    const parts = partScores(index, query, minTerms, depth, weighBy);
    const wsum = parts.reduce((a, p) => a + p.w, 0) || 1;
    const top = hits[0].score || 1;
    const rel = new Map<string, number>(hits.map((h) => [h.id, h.score / top]));
    const cands = [...new Set([...hits.slice(0, n).map((h) => h.id), ...parts.flatMap((p) => [...p.of.keys()])])];
    const left = parts.map((p) => p.w / wsum);
    const chosen = [hits[0].id];
    const taken = new Set(chosen);
    const take = (id: string) => parts.forEach((p, a) => (left[a] *= 1 - (p.of.get(id) ?? 0)));
    take(hits[0].id);
    while (chosen.length < Math.min(cands.length, 30)) {
      let best = '';
      let bg = -Infinity;
      for (const id of cands) {
        if (taken.has(id)) continue;
        let nov = 0;
        parts.forEach((p, a) => (nov += left[a] * (p.of.get(id) ?? 0)));
        const g = (1 - lambda) * (rel.get(id) ?? 0) + lambda * nov;
        if (g > bg) {
          bg = g;
          best = id;
        }
      }
      chosen.push(best);
      taken.add(best);
      take(best);
    }
    return [...chosen, ...hits.map((h) => h.id).filter((id) => !taken.has(id))];
  };
}


/** Jaccard similarity of two skills' term sets (phrases included). */
let JFIELDS = [0, 1, 2, 3];
function jaccard(index: SkillIndex, a: string, b: string, cache: Map<string, Set<number>>): number {
  const set = (id: string) => {
    let s = cache.get(id);
    if (!s) {
      const d = index.tokensOf(id);
      s = new Set<number>();
      if (d) for (let i = 0; i < d.terms.length; i++) if (JFIELDS.some((f) => unpack(d.counts[i], f) > 0)) s.add(d.terms[i]);
      cache.set(id, s);
    }
    return s;
  };
  const x = set(a);
  const y = set(b);
  let both = 0;
  for (const t of x) if (y.has(t)) both++;
  return both / (x.size + y.size - both || 1);
}

/** Near-duplicates (Jaccard >= th with a skill listed above) move below the first `n` distinct ones. */
function dedup(th: number, n = 20, inner: Variant = (index, q) => index.search(q, TOP).map((h) => h.id)): Variant {
  return (index, query) => {
    const ranked = inner(index, query);
    const cache = new Map<string, Set<number>>();
    const kept: string[] = [];
    const later: string[] = [];
    for (const id of ranked.slice(0, n)) {
      if (kept.some((k) => jaccard(index, k, id, cache) >= th)) later.push(id);
      else kept.push(id);
    }
    return [...kept, ...later, ...ranked.slice(n)];
  };
}

/** Re-ranks the best n by score / best + a * name coverage + b * description coverage (the first may change). */
function coverageRerank(a: number, b: number, n = 100, keepFirst = false): Variant {
  return (index, query) => {
    const hits = index.search(query, TOP);
    if (!hits.length) return [];
    const q = new Set(indexTerms(query.replace(/[-_]/g, ' ')));
    const top = hits[0].score || 1;
    const head = hits.slice(0, n).map((h) => ({ id: h.id, s: h.score / top + (a ? a * fieldShare(index, h.id, q, 0) : 0) + (b ? b * fieldShare(index, h.id, q, 1) : 0) }));
    if (keepFirst) head[0].s = Infinity;
    head.sort((x, y) => y.s - x.s);
    return [...head.map((h) => h.id), ...hits.slice(n).map((h) => h.id)];
  };
}

/** The whole request's first `head`, then each part's best `m` not yet listed (parts in request order), then the rest. */
function partsAugmented(head: number, m: number, minTerms: number): Variant {
  return (index, query) => {
    const hits = index.search(query, 300).map((h) => h.id);
    const out = hits.slice(0, head);
    const seen = new Set(out);
    for (const p of aspects(query, minTerms)) {
      for (const h of index.search(p, m)) {
        if (!seen.has(h.id)) {
          seen.add(h.id);
          out.push(h.id);
        }
      }
    }
    for (const id of hits) if (!seen.has(id)) out.push(id);
    return out;
  };
}

const variants: Record<string, Variant> = { base: (index, q) => index.search(q, 300).map((h) => h.id) };
const wanted = (process.argv[3] ?? 'xq,rrf').split(',');
if (wanted.includes('product')) variants['product (searchInOrder)'] = (index, q) => searchInOrder(index, q, TOP).map((h) => h.id);
if (wanted.includes('covk')) {
  for (const a of [0, 0.1, 0.2]) for (const b of [0.2, 0.4, 0.6, 0.8]) for (const n of [20, 100]) variants[`covk a${a} b${b} n${n}`] = coverageRerank(a, b, n, true);
}
if (wanted.includes('cov')) {
  for (const a of [0, 0.1, 0.2, 0.4]) for (const b of [0, 0.1, 0.2, 0.4]) if (a || b) variants[`cov a${a} b${b}`] = coverageRerank(a, b);
}
if (wanted.includes('aug')) {
  for (const head of [20, 40]) for (const m of [1, 2, 3]) for (const mt of [3, 5]) variants[`aug h${head} m${m} t${mt}`] = partsAugmented(head, m, mt);
}
if (wanted.includes('dd')) {
  const inner = coverageRerank(0.2, 0.4, 20, true);
  variants['covk a0.2 b0.4 n20'] = inner;
  for (const th of [0.6, 0.8, 0.95]) variants[`covk+dedup desc ${th}`] = (index, q) => ((JFIELDS = [1]), dedup(th, 20, inner)(index, q));
  for (const th of [0.6, 0.8, 0.95]) variants[`covk+dedup all ${th}`] = (index, q) => ((JFIELDS = [0, 1, 2, 3]), dedup(th, 20, inner)(index, q));
}
if (wanted.includes('dedup')) {
  for (const th of [0.5, 0.7, 0.85]) variants[`dedup ${th}`] = dedup(th);
}
if (wanted.includes('max')) {
  for (const beta of [0.3, 0.6, 1]) for (const m of [3, 5]) for (const wb of ['one', 'conf']) variants[`max b${beta} m${m} ${wb}`] = maxFuse(beta, 30, m, wb);
}
if (wanted.includes('xqp')) {
  for (const l of [0.3, 0.5, 0.7]) for (const m of [3, 5]) for (const wb of ['one', 'conf', 'score']) variants[`xqp l${l} m${m} ${wb}`] = xquadParts(l, 30, m, wb);
}
if (wanted.includes('rrf')) {
  for (const w of [0.5, 1, 2]) for (const k of [10, 60]) for (const m of [3, 6]) variants[`rrf w${w} k${k} m${m}`] = aspectRrf(w, k, m);
}

interface Tot {
  hit1: number;
  r5: number;
  r10: number;
  r50: number;
  r100: number;
  k: number;
  ms: number[];
}

async function main(): Promise<void> {
  const { pool, tasks, distractors } = loadRouting();
  const sizes = (process.argv[2] ?? '1000,10000').split(',');
  for (const label of sizes) {
    const full = label === 'full';
    const n = full ? pool.size : Number(label);
    const base = full ? [...pool.keys()] : distractors.slice(0, n);
    const index = new SkillIndex();
    for (const id of base) index.put(pool.get(id) as PoolSkill);
    const tot = new Map<string, [Tot, Tot]>();
    const fresh = (): Tot => ({ hit1: 0, r5: 0, r10: 0, r50: 0, r100: 0, k: 0, ms: [] });
    for (const name of Object.keys(variants)) tot.set(name, [fresh(), fresh()]);
    tasks.forEach((task: RoutingTask, i) => {
      const extra = full ? [] : base.slice(n - task.core_gt_ids.length);
      if (!full) {
        for (const id of task.core_gt_ids) index.put(pool.get(id) as PoolSkill);
        for (const id of extra) index.remove(id);
      }
      void poolFor;
      const core = new Set(task.core_gt_ids);
      for (const [name, v] of Object.entries(variants)) {
        const t0 = performance.now();
        const ranked = v(index, task.query);
        const ms = performance.now() - t0;
        const t = (tot.get(name) as [Tot, Tot])[i % 2];
        const r = (k: number) => ranked.slice(0, k).filter((id) => core.has(id)).length / core.size;
        t.hit1 += core.has(ranked[0]) ? 1 : 0;
        t.r5 += r(5);
        t.r10 += r(10);
        t.r50 += r(50);
        t.r100 += r(100);
        t.k++;
        t.ms.push(ms);
      }
      if (!full) {
        for (const id of task.core_gt_ids) if (!base.includes(id)) index.remove(id);
        for (const id of extra) index.put(pool.get(id) as PoolSkill);
      }
    });
    console.log(`\n${label} skills:`);
    const p = (x: number, k: number) => ((100 * x) / k).toFixed(1).padStart(5);
    for (const [name, [a, b]] of tot) {
      const med = (ms: number[]) => [...ms].sort((x, y) => x - y)[ms.length >> 1].toFixed(2);
      const row = (t: Tot) => `H1 ${p(t.hit1, t.k)} R5 ${p(t.r5, t.k)} R10 ${p(t.r10, t.k)} R50 ${p(t.r50, t.k)} R100 ${p(t.r100, t.k)}`;
      console.log(`  ${name.padEnd(26)} A: ${row(a)} | B: ${row(b)} | all R5 ${p(a.r5 + b.r5, a.k + b.k)} | p50 ${med([...a.ms, ...b.ms])} ms`);
    }
  }
}

void main();
