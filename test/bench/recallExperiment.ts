// Issue 24 experiment (not part of `npm run bench`, not shipped): first-stage recall for long requests and long
// bodies with general IR methods not tried before (see the headers of diversifyExperiment.ts, weightSearch.ts and
// semantic/rerankExperiment.ts for what was). Each variant is a scorer of its own over the same tokens the skill
// index reads (indexTerms, splitBody, the same field caps), so variants differ in scoring only; `base` re-implements
// the index's BM25F and is checked against the real SkillIndex (CHECK=1 prints how many tasks' first 20 differ).
// Every setting is printed for half A (even positions in tasks.jsonl) and half B (odd); weights are read off A and
// must hold on B. Pools as the routing bench builds them: per task its core skills plus the first n - k distractors.
//
//   nice node --max-old-space-size=6000 --import tsx test/bench/recallExperiment.ts [sizes] [groups]
//
// sizes: comma list of 100, 1000, 10000, full (default 1000,10000).
// groups: comma list of maxp, sect, fuse, sat, plus, qw, drop, first, ql, qlsum, desc, pick (default all but qlsum, pick).
//
// Results (2026-11-27, load 15-45, so every time is rough; 34 tasks a half: one task is 2.9 points of Hit@1).
// Hit@1 / Recall@5, half A | half B:
//                                  100                       1,000
//   base (BM25F today)              94.1/93.5 | 91.2/94.1     88.2/91.6 | 82.4/86.2
//   1. body by its best passage (windows of 50/100/200 terms, stride half, body weight 0.3/0.6/1), or by its best
//      section (text under one heading): at 1,000 every one loses Hit@1 on A (85.3 or 82.4) and R5 on A
//      (87.2-90.7); at 100 R5 A +0.8 but B -1.5. Best of them, maxp win100 w1: 94.1/94.3 | 94.1/92.6,
//      85.3/90.7 | 85.3/88.5. The whole-body score plus x0.05-0.2 of the best window's own BM25: no change at
//      0.05-0.1, a loss at 0.2 (1,000 A 85.3/88.7). Not kept: fails at 1,000.
//   2. per-field saturation (body saturated apart, x0.1-0.4 of a term, k1 0.5/1.2/3): every setting loses on A at
//      1,000 but x0.4 k1 3 (88.2/89.1, R5 -2.5); BM25+ (delta 0.05-0.4 x idf per matched word): R5 A no gain
//      (91.6 at best), B loses from 0.1. Per-field b was searched before (weightSearch.ts). Not kept.
//   3. verbose requests: request words x idf^0.25/0.5/1 (1,000 idf^0.25: 88.2/92.1 | 85.3/87.6, but 100 B Hit@1
//      91.2 -> 88.2: not kept); words held by more than 5/10/20/40% of the pool dropped (A gains at 1,000 for
//      20%: 91.2/89.2, R5 A -2.4; not kept); the first sentence's words x1.25/1.5/2 (1,000 A R5 +0.5, Hit@1 same
//      or lower; not kept).
//      Query likelihood with Dirichlet smoothing over the field-weighted text (weights as BM25F's), fused with
//      BM25F by reciprocal rank (k 60): mu 100/300/1,000 x weight 0.25/0.5/1. Chosen on A: mu 100, weight 0.25:
//        100:   97.1/95.2 | 91.2/94.1      1,000: 94.1/92.1 | 88.2/87.7      (A up, B up or equal at both)
//      Rank fusion ignores BM25F's margin: on searchOrderFixtures' two-part catalog (written here) it puts a broad
//      suite (BM25F 13.4) above the skill the request is about (20.1). Margin-keeping fusion instead, BM25F over
//      its best + x the likelihood scaled to 0..1 over the matches (qlsum; mu 100/300 x 0.1/0.25/0.5). On A:
//      mu 100 x0.25:  100: 94.1/94.3 | 91.2/94.6      1,000: 88.2/92.1 | 85.3/87.2   (smaller, nothing worse)
//      Built as SkillIndex code (rank fusion) on branch recall24-fusion, not merged here: the real routing bench
//      there at 100 / 1,000 gave Hit@1 94.1 / 91.2 (today 92.6 / 85.3), find Recall@5 94.2 / 90.7 (unchanged),
//      4,000-token list 100.0 / 97.9 (today 100.0 / 97.5).
//      The margin-keeping variant (qlsum mu 100 x0.25) is now SkillIndex code (IndexWeights.likelihood; the order
//      only, a hit's score stays BM25F's). Real routing bench, niced, load 17-23 (ROUTING_SIZES=100,1000,10000):
//        100:    Hit@1 92.6 (92.6 before), Recall@20 99.4 (98.7), find Recall@5 94.2 (94.2), list@4000 100.0 (100.0)
//        1,000:  Hit@1 86.8 (85.3; A 88.2 | B 85.3 against 88.2 | 82.4), Recall@20 95.3 (94.6), find R5 90.7 (90.7),
//                list@4000 97.9 (97.5)
//        10,000: Hit@1 75.0 (73.5), Hit@5 88.2 (86.8), Recall@20 89.3 (88.3), nDCG@10 77.1 (76.6), find R5 78.0
//                (78.0), list@2000/4000/8000 92.9/95.3/95.3 (90.9/93.9/95.3). Kept: nothing worse at any size.
//   4. a name+description-only BM25F fused by reciprocal rank (x0.25/0.5/1): 1,000 R5 A 88.7 or lower. Not kept.
//   At 10,000 (4,033 s at load 40; base A 82.4/79.0 | B 67.6/72.5): query likelihood rrf mu 100 x0.25
//   79.4/81.9 | 76.5/76.9 (A loses a task at Hit@1, R5 up on both halves: a trade, not shipped); idf^0.25
//   82.4/77.6 | 67.6/75.2; first sentence, term dropping, BM25+, name+description fusion: A lower at Hit@1 or R5.
//   Passages at 10,000 (4,077 s): every best-window/best-section setting loses Hit@1 on A (76.5-79.4) and R50 on A
//   (90.7-92.6 vs 95.1); the fused best window x0.05-0.2 leaves A's Hit@1 and R5 as they are; per-field
//   saturation loses on A everywhere. The full pool: not finished in this session's time.
import { indexTerms, splitBody, termPairs } from '../../src/core/index/indexTokens';
import { CAPS } from '../../src/core/index/postingLists';
import { DEFAULT_WEIGHTS, MAX_BODY_CHARS, MAX_QUERY_CHARS, SkillIndex } from '../../src/core/index/skillIndex';
import { loadRouting, routingDataPresent, type PoolSkill, type RoutingTask } from './routingData';

if (!routingDataPresent()) {
  console.log('experiment not run: the routing data is not present (set ROUTING_DIR)');
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------------------------
// Tokens: every skill read once, as the index reads it; body text kept as a token sequence with section starts.

const vocab = new Map<string, number>();
const termId = (t: string) => {
  let id = vocab.get(t);
  if (id === undefined) vocab.set(t, (id = vocab.size));
  return id;
};

interface Doc {
  id: string;
  /** Per field (name, description, headings, body): the field's length in terms. */
  len: number[];
  /** Body text tokens in order, and where each section (text after a heading) starts in them. */
  body: Int32Array;
  sections: number[];
  /** Distinct terms (pairs of name and description included) and their per-field counts (4 per term). */
  terms: Int32Array;
  counts: Int32Array;
}

function readDoc(s: PoolSkill): Doc {
  const { headings } = splitBody(s.body);
  // Body text per section, tokenized piece by piece (the same terms as the joined text: pieces end at a newline).
  const src = s.body.length > 40_000 ? s.body.slice(0, 40_000) : s.body;
  const pieces: string[] = [''];
  let fenced = false;
  for (const line of src.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (!fenced && /^#{1,6}\s/.test(line)) pieces.push('');
    else pieces[pieces.length - 1] += `${line}\n`;
  }
  const body: number[] = [];
  const sections: number[] = [];
  let chars = 0;
  for (const p of pieces) {
    if (chars >= MAX_BODY_CHARS) break;
    const part = p.slice(0, MAX_BODY_CHARS - chars);
    chars += part.length;
    sections.push(body.length);
    for (const t of indexTerms(part)) body.push(termId(t));
  }
  const fields = [indexTerms(s.name.replace(/[-_.]/g, ' ')), indexTerms(s.description), indexTerms(headings)];
  const counts = new Map<number, number[]>();
  const add = (t: number, f: number) => {
    let c = counts.get(t);
    if (!c) counts.set(t, (c = [0, 0, 0, 0]));
    if (c[f] < CAPS[f]) c[f]++;
  };
  fields.forEach((ts, f) => ts.forEach((t) => add(termId(t), f)));
  for (const t of body) add(t, 3);
  for (const f of [0, 1]) for (const p of termPairs(fields[f])) add(termId(p), f);
  const terms = Int32Array.from(counts.keys());
  const flat = new Int32Array(terms.length * 4);
  let i = 0;
  for (const c of counts.values()) flat.set(c, 4 * i++);
  return { id: s.id, len: [fields[0].length, fields[1].length, fields[2].length, body.length], body: Int32Array.from(body), sections, terms, counts: flat };
}

/** Postings per term: doc numbers and, per posting, the doc's offset into its own counts. */
interface Postings {
  docs: number[];
  at: number[];
}

// ---------------------------------------------------------------------------------------------------------------
// A task's view: its pool (mask), the pool's statistics, the request's terms.

interface QTerm {
  t: number;
  pair: boolean;
  /** Query weight (1 + ln count) and the first sentence's share. */
  w: number;
  first: boolean;
  df: number;
  idf: number;
}

interface View {
  n: number;
  avg: number[];
  mask: Uint8Array;
  q: QTerm[];
  /** Per query word term id (no pairs): its index in q (-1 elsewhere), a dense lookup for body scans. */
  qIndex: Int32Array;
}

interface Setting {
  name: string;
  k1: number;
  w: number[];
  b: number[];
  pair: number;
  /** Body scored on: the whole body, its best window of `win` terms (stride win/2), or its best section. */
  body: 'whole' | 'maxp' | 'sect';
  win: number;
  /** Also add fuse x the best passage's own BM25 (body-only) to the whole-document score. */
  fuse: number;
  /** Body saturated apart: idf * sat * tfb / (k1b + tfb), body out of the shared sum. */
  sat: number;
  k1b: number;
  /** BM25+: delta x idf for every matched word. */
  delta: number;
  /** Query term weight x idf^qpow. */
  qpow: number;
  /** Words held by more than this share of the pool dropped (1 = none). */
  drop: number;
  /** Words of the request's first sentence weigh x (1 + first). */
  first: number;
  /** Fusion with a second ranking by reciprocal rank (k 60), weight of the second: query likelihood or name+description. */
  ql: number;
  mu: number;
  /** Instead of rank fusion: BM25F / its best + qlSum x the likelihood scaled to 0..1 over the matches (keeps margins). */
  qlSum: number;
  desc: number;
}

const BASE: Setting = {
  name: 'base',
  k1: DEFAULT_WEIGHTS.k1,
  w: ['name', 'description', 'headings', 'body'].map((f) => DEFAULT_WEIGHTS.fields[f as 'name'].weight),
  b: ['name', 'description', 'headings', 'body'].map((f) => DEFAULT_WEIGHTS.fields[f as 'name'].b),
  pair: DEFAULT_WEIGHTS.pair,
  body: 'whole',
  win: 150,
  fuse: 0,
  sat: 0,
  k1b: 1.2,
  delta: 0,
  qpow: 0,
  drop: 1,
  first: 0,
  ql: 0,
  mu: 300,
  qlSum: 0,
  desc: 0,
};

const idfOf = (n: number, df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));

function readRequest(query: string): { t: string; pair: boolean; w: number; first: boolean }[] {
  const src = query.length > MAX_QUERY_CHARS ? query.slice(0, MAX_QUERY_CHARS) : query;
  const list = indexTerms(src.replace(/[-_]/g, ' '));
  const firstSentence = src.split(/\n\s*\n|(?<=[.!?])\s+/).find((p) => indexTerms(p).length > 0) ?? '';
  const firstTerms = new Set(indexTerms(firstSentence.replace(/[-_]/g, ' ')));
  const out: { t: string; pair: boolean; w: number; first: boolean }[] = [];
  for (const [items, pair] of [[list, false], [termPairs(list), true]] as const) {
    const c = new Map<string, number>();
    for (const t of items) c.set(t, (c.get(t) ?? 0) + 1);
    for (const [t, k] of c) out.push({ t, pair, w: 1 + Math.log(k), first: pair ? t.split(' ').every((x) => firstTerms.has(x)) : firstTerms.has(t) });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Scoring.

/** Best passage per doc: the counts of each query word in it and its length, for the passages of `mode`. */
function bestPassage(doc: Doc, v: View, s: Setting, avgP: number): { counts: Map<number, number>; len: number; score: number } | undefined {
  const body = doc.body;
  if (!body.length) return undefined;
  const pos: number[] = [];
  const which: number[] = [];
  for (let i = 0; i < body.length; i++) {
    const k = v.qIndex[body[i]];
    if (k >= 0) {
      pos.push(i);
      which.push(k);
    }
  }
  if (!pos.length) return undefined;
  const spans: [number, number][] = [];
  if (s.body === 'sect') {
    for (let i = 0; i < doc.sections.length; i++) spans.push([doc.sections[i], i + 1 < doc.sections.length ? doc.sections[i + 1] : body.length]);
  } else {
    const step = Math.max(1, s.win >> 1);
    for (let a = 0; a === 0 || a + step < body.length; a += step) spans.push([a, Math.min(body.length, a + s.win)]);
  }
  let best: { counts: Map<number, number>; len: number; score: number } | undefined;
  let p = 0;
  for (const [a, e] of spans) {
    while (p < pos.length && pos[p] < a) p++;
    const counts = new Map<number, number>();
    for (let j = p; j < pos.length && pos[j] < e; j++) counts.set(which[j], (counts.get(which[j]) ?? 0) + 1);
    if (!counts.size) continue;
    const len = e - a;
    const norm = 1 / (1 - s.b[3] + (s.b[3] * len) / avgP);
    let score = 0;
    for (const [k, c] of counts) {
      const tf = c * norm;
      score += v.q[k].w * v.q[k].idf * (tf / (s.k1 + tf));
    }
    if (!best || score > best.score) best = { counts, len, score };
  }
  return best;
}

/** Scores of every pool skill holding a query term, by setting `s` (one pass over the postings, term at a time). */
function scoreAll(docs: Doc[], postings: Postings[], v: View, s: Setting, avgP: number, passages: Map<number, ReturnType<typeof bestPassage>>): Map<number, number> {
  const scores = new Float64Array(docs.length);
  const touched: number[] = [];
  const norm = (d: Doc, f: number) => s.w[f] / (1 - s.b[f] + (s.b[f] * d.len[f]) / (v.avg[f] || 1));
  const passageBody = s.body !== 'whole';
  const passageOf = (d: number, body: Setting['body']) => {
    if (!passages.has(d)) passages.set(d, bestPassage(docs[d], v, { ...s, body }, avgP));
    return passages.get(d);
  };
  v.q.forEach((q, k) => {
    const p = postings[q.t];
    if (!p) return;
    const wq = q.w * (q.pair ? s.pair : 1) * q.idf;
    for (let i = 0; i < p.docs.length; i++) {
      const d = p.docs[i];
      if (!v.mask[d]) continue;
      const doc = docs[d];
      const o = p.at[i] * 4;
      const c = doc.counts;
      let tf = 0;
      for (let f = 0; f < 3; f++) if (c[o + f]) tf += c[o + f] * norm(doc, f);
      let add = 0;
      if (passageBody) {
        const bp = q.pair ? undefined : passageOf(d, s.body);
        const pc = bp?.counts.get(k) ?? 0;
        if (pc && bp) tf += (pc * s.w[3]) / (1 - s.b[3] + (s.b[3] * bp.len) / avgP);
      } else if (c[o + 3]) {
        const tb = c[o + 3] * norm(doc, 3);
        if (s.sat) add = wq * s.sat * ((tb / s.w[3]) / (s.k1b + tb / s.w[3]));
        else tf += tb;
      }
      if (tf > 0) add += wq * (tf / (s.k1 + tf) + (q.pair ? 0 : s.delta));
      if (add === 0) continue;
      if (scores[d] === 0) touched.push(d);
      scores[d] += add;
    }
  });
  const out = new Map<number, number>();
  for (const d of touched) out.set(d, scores[d]);
  if (s.fuse) {
    for (const d of touched) {
      const bp = passageOf(d, s.body === 'whole' ? 'maxp' : s.body);
      if (bp) out.set(d, (out.get(d) as number) + s.fuse * bp.score);
    }
  }
  return out;
}

/** Query likelihood with Dirichlet smoothing over one weighted text (name x4, description x2, headings, body x0.3). */
function queryLikelihood(docs: Doc[], postings: Postings[], v: View, s: Setting, cf: Map<number, number>, total: number): Map<number, number> {
  const fw = [4, 2, 1, 0.3];
  const out = new Map<number, number>();
  const words = v.q.filter((q) => !q.pair);
  const dl = (d: Doc) => d.len.reduce((x, l, f) => x + fw[f] * l, 0);
  for (const q of words) {
    const p = postings[q.t];
    if (!p) continue;
    const pc = Math.max(1, cf.get(q.t) ?? 1) / total;
    for (let i = 0; i < p.docs.length; i++) {
      const d = p.docs[i];
      if (!v.mask[d]) continue;
      const o = p.at[i] * 4;
      const c = docs[d].counts;
      const tf = fw[0] * c[o] + fw[1] * c[o + 1] + fw[2] * c[o + 2] + fw[3] * c[o + 3];
      out.set(d, (out.get(d) ?? 0) + q.w * Math.log(1 + tf / (s.mu * pc)));
    }
  }
  const qlen = words.reduce((x, q) => x + q.w, 0);
  for (const [d, x] of out) out.set(d, x + qlen * Math.log(s.mu / (dl(docs[d]) + s.mu)));
  return out;
}

const rankOf = (scores: Map<number, number>, docs: Doc[]) => [...scores.entries()].sort((a, b) => b[1] - a[1] || (docs[a[0]].id < docs[b[0]].id ? -1 : 1)).map(([d]) => d);

function rrf(first: number[], second: number[], w: number): number[] {
  const s = new Map<number, number>();
  first.forEach((d, r) => s.set(d, 1 / (60 + r)));
  second.forEach((d, r) => s.set(d, (s.get(d) ?? 0) + w / (60 + r)));
  return [...s.entries()].sort((a, b) => b[1] - a[1]).map(([d]) => d);
}

// ---------------------------------------------------------------------------------------------------------------
// Settings.

const groups = (process.argv[3] ?? 'maxp,sect,fuse,sat,plus,qw,drop,first,ql,desc').split(',');
const settings: Setting[] = [BASE];
const add = (name: string, o: Partial<Setting>) => settings.push({ ...BASE, ...o, name });
if (groups.includes('maxp')) for (const win of [50, 100, 200]) for (const w of [0.3, 0.6, 1]) add(`maxp win${win} w${w}`, { body: 'maxp', win, w: [...BASE.w.slice(0, 3), w] });
if (groups.includes('sect')) for (const w of [0.3, 0.6]) for (const b of [0.5, 0.9]) add(`sect w${w} b${b}`, { body: 'sect', w: [...BASE.w.slice(0, 3), w], b: [...BASE.b.slice(0, 3), b] });
if (groups.includes('fuse')) for (const win of [100, 200]) for (const fuse of [0.05, 0.1, 0.2]) add(`fuse maxp win${win} x${fuse}`, { fuse, win });
if (groups.includes('sat')) for (const sat of [0.1, 0.2, 0.4]) for (const k1b of [0.5, 1.2, 3]) add(`sat body x${sat} k1b${k1b}`, { sat, k1b });
if (groups.includes('plus')) for (const delta of [0.05, 0.1, 0.2, 0.4]) add(`bm25+ d${delta}`, { delta });
if (groups.includes('qw')) for (const qpow of [0.25, 0.5, 1]) add(`query idf^${qpow}`, { qpow });
if (groups.includes('drop')) for (const drop of [0.05, 0.1, 0.2, 0.4]) add(`drop df>${drop}`, { drop });
if (groups.includes('first')) for (const first of [0.25, 0.5, 1]) add(`first sentence x${1 + first}`, { first });
if (groups.includes('ql')) for (const mu of [100, 300, 1000]) for (const ql of [0.25, 0.5, 1]) add(`ql mu${mu} rrf${ql}`, { ql, mu });
if (groups.includes('qlsum')) for (const mu of [100, 300]) for (const qlSum of [0.1, 0.25, 0.5]) add(`ql mu${mu} sum${qlSum}`, { qlSum, mu });
if (groups.includes('desc')) for (const desc of [0.25, 0.5, 1]) add(`name+desc rrf${desc}`, { desc });
if (groups.includes('pick')) {
  // Combinations read off half A (filled in after the single-method runs).
  for (const s of (process.env.PICK ?? '').split(';').filter(Boolean)) add(`pick ${s}`, JSON.parse(s) as Partial<Setting>);
}

// ---------------------------------------------------------------------------------------------------------------

interface Tot {
  hit1: number;
  r5: number;
  r10: number;
  r50: number;
  r100: number;
  k: number;
}

function main(): void {
  const { pool, tasks, distractors } = loadRouting();
  const sizes = (process.argv[2] ?? '1000,10000').split(',');
  const core = [...new Set(tasks.flatMap((t) => t.core_gt_ids))];
  const wantFull = sizes.includes('full');
  const biggest = Math.max(0, ...sizes.filter((x) => x !== 'full').map(Number));
  const ids = wantFull ? [...pool.keys()] : [...new Set([...core, ...distractors.slice(0, biggest)])];
  const t0 = performance.now();
  const docs = ids.map((id) => readDoc(pool.get(id) as PoolSkill));
  const numOf = new Map(docs.map((d, i) => [d.id, i]));
  const postings: Postings[] = [];
  docs.forEach((d, i) => {
    for (let j = 0; j < d.terms.length; j++) {
      const t = d.terms[j];
      (postings[t] ??= { docs: [], at: [] }).docs.push(i);
      postings[t].at.push(j);
    }
  });
  console.log(`read ${docs.length} skills, ${vocab.size} terms in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  for (const label of sizes) {
    const full = label === 'full';
    const n = full ? pool.size : Number(label);
    const tot = new Map(settings.map((s) => [s.name, [0, 1].map(() => ({ hit1: 0, r5: 0, r10: 0, r50: 0, r100: 0, k: 0 }) as Tot)]));
    let differ = 0;
    const t1 = performance.now();
    tasks.forEach((task: RoutingTask, ti) => {
      const mask = new Uint8Array(docs.length);
      const members = full ? ids : [...task.core_gt_ids, ...distractors.slice(0, n - task.core_gt_ids.length)];
      for (const id of members) mask[numOf.get(id) as number] = 1;
      const avg = [0, 0, 0, 0];
      let avgP = 0;
      for (const id of members) {
        const d = docs[numOf.get(id) as number];
        for (let f = 0; f < 4; f++) avg[f] += d.len[f];
      }
      for (let f = 0; f < 4; f++) avg[f] /= members.length;
      const req = readRequest(task.query);
      const baseQ: QTerm[] = [];
      for (const r of req) {
        const t = vocab.get(r.t);
        if (t === undefined || !postings[t]) continue;
        let df = 0;
        for (const d of postings[t].docs) df += mask[d];
        if (df > 0) baseQ.push({ t, pair: r.pair, w: r.w, first: r.first, df, idf: idfOf(members.length, df) });
      }
      const goal = new Set(task.core_gt_ids.map((id) => numOf.get(id) as number));
      // Corpus frequencies for query likelihood (weighted as its text is).
      const cf = new Map<number, number>();
      let total = 0;
      if (settings.some((s) => s.ql || s.qlSum)) {
        for (const id of members) {
          const d = docs[numOf.get(id) as number];
          total += 4 * d.len[0] + 2 * d.len[1] + d.len[2] + 0.3 * d.len[3];
        }
        for (const q of baseQ) {
          if (q.pair) continue;
          let c = 0;
          const p = postings[q.t];
          for (let i = 0; i < p.docs.length; i++) {
            if (!mask[p.docs[i]]) continue;
            const o = p.at[i] * 4;
            const cc = docs[p.docs[i]].counts;
            c += 4 * cc[o] + 2 * cc[o + 1] + cc[o + 2] + 0.3 * cc[o + 3];
          }
          cf.set(q.t, c);
        }
      }
      const passageCache = new Map<string, Map<number, ReturnType<typeof bestPassage>>>();
      let baseRank: number[] = [];
      for (const s of settings) {
        const q = baseQ
          .filter((x) => x.pair || x.df <= s.drop * members.length)
          .map((x) => ({ ...x, w: x.w * (s.qpow ? x.idf ** s.qpow : 1) * (x.first ? 1 + s.first : 1) }));
        const qIndex = new Int32Array(vocab.size).fill(-1);
        q.forEach((x, k) => {
          if (!x.pair) qIndex[x.t] = k;
        });
        const v: View = { n: members.length, avg, mask, q, qIndex };
        const winAvg = (win: number) => {
          let sum = 0;
          let c = 0;
          for (const id of members) {
            const d = docs[numOf.get(id) as number];
            if (d.len[3]) {
              sum += Math.min(win, d.len[3]);
              c++;
            }
          }
          return sum / (c || 1);
        };
        const sectAvg = () => {
          let sum = 0;
          let c = 0;
          for (const id of members) {
            const d = docs[numOf.get(id) as number];
            if (d.len[3]) {
              sum += d.len[3];
              c += d.sections.length;
            }
          }
          return sum / (c || 1);
        };
        avgP = s.body === 'sect' ? sectAvg() : winAvg(s.win);
        const key = `${s.body} ${s.win} ${s.drop} ${s.qpow} ${s.first} ${s.fuse > 0}`;
        if (!passageCache.has(key)) passageCache.set(key, new Map());
        const bm = scoreAll(docs, postings, v, s, avgP, passageCache.get(key) as Map<number, ReturnType<typeof bestPassage>>);
        if (s.qlSum) {
          const ql = queryLikelihood(docs, postings, v, s, cf, total);
          const top = Math.max(...bm.values());
          const lo = Math.min(...ql.values());
          const span = Math.max(...ql.values()) - lo || 1;
          for (const [d, x] of bm) bm.set(d, x / top + s.qlSum * (((ql.get(d) ?? lo) - lo) / span));
        }
        let ranked = rankOf(bm, docs);
        if (s.ql) ranked = rrf(ranked, rankOf(queryLikelihood(docs, postings, v, s, cf, total), docs), s.ql);
        if (s.desc) {
          const nd: Setting = { ...s, w: [s.w[0], s.w[1], 0, 0] };
          const only = rankOf(scoreAll(docs, postings, v, nd, avgP, new Map()), docs).filter((d) => docs[d].counts.length > 0);
          ranked = rrf(ranked, only, s.desc);
        }
        if (s === BASE) baseRank = ranked;
        const t = (tot.get(s.name) as Tot[])[ti % 2];
        const r = (k: number) => ranked.slice(0, k).filter((d) => goal.has(d)).length / goal.size;
        t.hit1 += goal.has(ranked[0]) ? 1 : 0;
        t.r5 += r(5);
        t.r10 += r(10);
        t.r50 += r(50);
        t.r100 += r(100);
        t.k++;
      }
      if (process.env.CHECK) {
        const index = new SkillIndex();
        for (const id of members) index.put(pool.get(id) as PoolSkill);
        const real = index.search(task.query, 20).map((h) => h.id).join(',');
        if (real !== baseRank.slice(0, 20).map((d) => docs[d].id).join(',')) differ++;
      }
    });
    console.log(`\n${label} skills (${((performance.now() - t1) / 1000).toFixed(0)} s${process.env.CHECK ? `; base vs SkillIndex: ${differ} of ${tasks.length} tasks' first 20 differ` : ''}):`);
    const p = (x: number, k: number) => ((100 * x) / k).toFixed(1).padStart(5);
    const row = (t: Tot) => `H1 ${p(t.hit1, t.k)} R5 ${p(t.r5, t.k)} R10 ${p(t.r10, t.k)} R50 ${p(t.r50, t.k)} R100 ${p(t.r100, t.k)}`;
    for (const [name, [a, b]] of tot) console.log(`  ${name.padEnd(28)} A: ${row(a)} | B: ${row(b)}`);
  }
}

main();
