// Issue 24 experiment (not part of `npm run bench`): the index's BM25F weights (k1, per-field weight and b, the
// phrase weight) chosen by a coordinate search on half A of the routing tasks (even positions in tasks.jsonl),
// then printed for half B (odd positions) beside the defaults, at each size. One pool per size: the first n
// distractors plus every task's core skills (the index is built once; weights apply at query time).
//
//   node --max-old-space-size=6000 --import tsx test/bench/weightSearch.ts [searchSize] [checkSizes]
//
// Result (2026-11-27, at 10,000): no knob moved to 0.5x, 0.75x, 1.33x or 2x of its default raised half A's
// Hit@1 + Recall@5 + Recall@50 / 2 (defaults A: Hit@1 79.4, Recall@5 78.5, Recall@50 95.1): the defaults are a
// local optimum on A, so they stay. VERBOSE=1 prints every try.
import { DEFAULT_WEIGHTS, SkillIndex, type IndexWeights } from '../../src/core/index/skillIndex';
import { loadRouting, routingDataPresent, type PoolSkill } from './routingData';

if (!routingDataPresent()) {
  console.log('experiment not run: the routing data is not present (set ROUTING_DIR)');
  process.exit(0);
}

const { pool, tasks, distractors } = loadRouting();
const clone = (w: IndexWeights): IndexWeights => JSON.parse(JSON.stringify(w)) as IndexWeights;

function build(n: number | 'full', weights: IndexWeights): SkillIndex {
  const index = new SkillIndex(weights);
  const ids = n === 'full' ? [...pool.keys()] : [...new Set([...distractors.slice(0, n), ...tasks.flatMap((t) => t.core_gt_ids)])];
  for (const id of ids) index.put(pool.get(id) as PoolSkill);
  return index;
}

/** Re-reads the weights (they are read when the norms are computed, after any change). */
function refresh(index: SkillIndex): void {
  index.put({ id: '\u0000refresh', name: 'x', description: '' });
  index.remove('\u0000refresh');
}

interface Score {
  hit1: number;
  r5: number;
  r50: number;
}

function evaluate(index: SkillIndex, half: number): Score {
  let hit1 = 0;
  let r5 = 0;
  let r50 = 0;
  let k = 0;
  tasks.forEach((task, i) => {
    if (half >= 0 && i % 2 !== half) return;
    const core = new Set(task.core_gt_ids);
    const ranked = index.search(task.query, 50).map((h) => h.id);
    const r = (m: number) => ranked.slice(0, m).filter((id) => core.has(id)).length / core.size;
    hit1 += core.has(ranked[0]) ? 1 : 0;
    r5 += r(5);
    r50 += r(50);
    k++;
  });
  return { hit1: (100 * hit1) / k, r5: (100 * r5) / k, r50: (100 * r50) / k };
}

const objective = (s: Score) => s.hit1 + s.r5 + 0.5 * s.r50;
const fmt = (s: Score) => `H1 ${s.hit1.toFixed(1)} R5 ${s.r5.toFixed(1)} R50 ${s.r50.toFixed(1)}`;

function main(): void {
  const searchSize = Number(process.argv[2] ?? 10000);
  const checkSizes = (process.argv[3] ?? '100,1000,10000').split(',');
  const weights = clone(DEFAULT_WEIGHTS);
  const index = build(searchSize, weights);
  const start = evaluate(index, 0);
  let best = objective(start);
  console.log(`search at ${searchSize} on half A; defaults: ${fmt(start)}`);
  // Coordinate search: each knob over a few multiples of its value, kept when half A's objective rises.
  const knobs: [string, (w: IndexWeights) => number, (w: IndexWeights, v: number) => void][] = [['k1', (w) => w.k1, (w, v) => (w.k1 = v)], ['pair', (w) => w.pair, (w, v) => (w.pair = v)]];
  for (const f of ['name', 'description', 'headings', 'body'] as const) {
    knobs.push([`${f}.weight`, (w) => w.fields[f].weight, (w, v) => (w.fields[f].weight = v)]);
    knobs.push([`${f}.b`, (w) => w.fields[f].b, (w, v) => (w.fields[f].b = Math.min(1, v))]);
  }
  for (let round = 0; round < Number(process.env.ROUNDS ?? 2); round++) {
    for (const [name, get, set] of knobs) {
      const was = get(weights);
      let keep = was;
      for (const m of [0.5, 0.75, 1.33, 2]) {
        set(weights, was * m);
        refresh(index);
        const s = evaluate(index, 0);
        if (process.env.VERBOSE) console.log(`    try ${name} x${m}: A ${fmt(s)}`);
        if (objective(s) > best + 1e-9) {
          best = objective(s);
          keep = get(weights);
          console.log(`  ${name} = ${keep.toFixed(3)}: A ${fmt(s)}`);
        }
      }
      set(weights, keep);
      refresh(index);
    }
  }
  console.log(`chosen: ${JSON.stringify(weights)}`);
  for (const label of checkSizes) {
    const n = label === 'full' ? 'full' : Number(label);
    const def = build(n, clone(DEFAULT_WEIGHTS));
    const ours = build(n, weights);
    console.log(`${label}: defaults A ${fmt(evaluate(def, 0))} | B ${fmt(evaluate(def, 1))}`);
    console.log(`${label}: chosen   A ${fmt(evaluate(ours, 0))} | B ${fmt(evaluate(ours, 1))}`);
  }
}

main();
