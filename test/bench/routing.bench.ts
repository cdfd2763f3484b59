// Skill routing (issue 24) on the SkillRouter-derived set in ../shared/routing (see its README): at 100, 1,000,
// 10,000 skills and the full pool, the skill index (BM25F over name, description and body, mentions by IDF)
// against today's baseline `rankSkills` (BM25 over name and description, every plain-name mention first),
// both measured in this run. Prints Hit@1, Hit@5, Recall@20, nDCG@10, the share of tasks whose core skill is in
// `<available_skills>` at 2,000 / 4,000 / 8,000 tokens, find_skills Recall@5, query latency p50/p99, index build
// time and memory, build time against discovery of the same skills, and one-skill re-index time.
// Nothing here is tuned on: the product code has no knowledge of these tasks.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as IndexModule from '../../src/core/index';
import type * as Prompt from '../../src/core/prompt';
import type * as Registry from '../../src/core/registry';
import type * as Catalog from '../../src/core/catalog';
import type * as Host from '../../src/core/host/localDisk';
import type * as Writes from '../../src/core/host/nodeWrites';
import { loadBundled, summarize } from './benchUtil';
import { loadRouting, poolFor, routingDataPresent, taskMetrics, type PoolSkill, type RoutingTask } from './routingData';

if (!routingDataPresent()) {
  console.log(`routing bench not run: the benchmark data is not at ${process.env.ROUTING_DIR ?? '/work/shared/routing'} (set ROUTING_DIR to its folder)`);
  process.exit(0);
}

const ix = loadBundled<typeof IndexModule>('src/core/index/index.ts');
const prompt = loadBundled<typeof Prompt>('src/core/prompt/index.ts');
const { createSkillRegistry } = loadBundled<typeof Registry>('src/core/registry/index.ts');
const { SkillCatalog } = loadBundled<typeof Catalog>('src/core/catalog/index.ts');
const { localDisk } = loadBundled<typeof Host>('src/core/host/localDisk.ts');
const { nodeWrites } = loadBundled<typeof Writes>('src/core/host/nodeWrites.ts');

const sizes = (process.env.ROUTING_SIZES ?? '100,1000,10000,full').split(',');
const BUDGETS = [2000, 4000, 8000];
const GOALS_AT = '10000';

// One count per entry text, shared by both sides (the product memoizes its counter the same way).
const memo = new Map<string, number>();
const counter = {
  count: (t: string) => {
    let n = memo.get(t);
    if (n === undefined) memo.set(t, (n = prompt.o200kCounter.count(t)));
    return n;
  },
  atMost: (t: string) => Buffer.byteLength(t, 'utf8'),
};

type Totals = Record<'hit1' | 'hit5' | 'recall20' | 'ndcg10' | 'recall5' | 'recallDefault', number> & { budget: number[] };
const zero = (): Totals => ({ hit1: 0, hit5: 0, recall20: 0, ndcg10: 0, recall5: 0, recallDefault: 0, budget: BUDGETS.map(() => 0) });
const pct = (x: number, n: number) => `${((100 * x) / n).toFixed(1)}%`;

/** The baseline's cut: today's rule (rank order, skip what does not fit, closing line reserved), over rankSkills' order. */
function baselineCut(ranked: readonly Prompt.CatalogSkill[], total: number, maxTokens: number): Set<Prompt.CatalogSkill> {
  const reserve = prompt.omittedLine(total, 'load');
  let tokens = counter.count('<available_skills>\n</available_skills>') + counter.count(reserve) + 1;
  const chosen = new Set<Prompt.CatalogSkill>();
  for (const s of ranked) {
    const t = counter.count(prompt.renderCatalogEntry(s, true)) + 1;
    if (tokens + t > maxTokens) continue;
    tokens += t;
    chosen.add(s);
  }
  return chosen;
}

/** `found`: find_skills' list (its search order), for Recall@5 and Recall@10; else `ranked`. */
function addMetrics(t: Totals, task: RoutingTask, ranked: string[], inPool: (id: string) => boolean, found: string[] = ranked): void {
  const m = taskMetrics(task, ranked, inPool);
  t.hit1 += m.hit1;
  t.hit5 += m.hit5;
  t.recall20 += m.recall20;
  t.ndcg10 += m.ndcg10;
  t.recall5 += found.slice(0, 5).filter((id) => task.core_gt_ids.includes(id)).length / task.core_gt_ids.length;
  t.recallDefault += found.slice(0, ix.DEFAULT_SEARCH_LIMIT).filter((id) => task.core_gt_ids.includes(id)).length / task.core_gt_ids.length;
}

function printRow(label: string, t: Totals, n: number, extra: string): void {
  const budget = BUDGETS.map((b, i) => `${b}: ${pct(t.budget[i], n)}`).join(', ');
  console.log(`  ${label}: Hit@1 ${pct(t.hit1, n)}, Hit@5 ${pct(t.hit5, n)}, Recall@20 ${pct(t.recall20, n)}, nDCG@10 ${pct(t.ndcg10, n)}, find Recall@5 ${pct(t.recall5, n)}, Recall@${ix.DEFAULT_SEARCH_LIMIT} (its default size) ${pct(t.recallDefault, n)}; in <available_skills> at ${budget}; ${extra}`);
}

const catalogSkill = (s: PoolSkill): Prompt.CatalogSkill => ({ id: s.id, name: s.name, description: s.description });

function heapMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 1048576;
}

const results = new Map<string, { ours: Totals; base: Totals; n: number; p50: number; p99: number; findP50: number; baseP50: number; blockP50: number }>();

async function runSize(label: string, pool: Map<string, PoolSkill>, tasks: RoutingTask[], distractors: string[]): Promise<void> {
  const full = label === 'full';
  const n = full ? pool.size : Number(label);
  const base = full ? [...pool.keys()] : distractors.slice(0, n);
  // Build: every skill of the pool put in once (the first task's pool at this size; the others differ by their core skills).
  const h0 = heapMb();
  const t0 = performance.now();
  const index = new ix.SkillIndex();
  for (const id of base) index.put(pool.get(id) as PoolSkill);
  const buildMs = performance.now() - t0;
  const heap = heapMb() - h0;
  const ours = zero();
  const baseTot = zero();
  // The same measures per half of the tasks (A: even positions in tasks.jsonl, B: odd), as the experiments print them.
  const halves = [zero(), zero()];
  const times: number[] = [];
  const findTimes: number[] = [];
  const baseTimes: number[] = [];
  const edits: number[] = [];
  // Beside the query (index.search(request, 20) right after the task's edits): mention detection, and the whole
  // <available_skills> block at 4,000 tokens (ranking, mentions, budget packing, token counts) for the request.
  const mentionTimes: number[] = [];
  const blockTimes: number[] = [];
  for (const [ti, task] of tasks.entries()) {
    const half = halves[ti % 2];
    const ids = full ? base : poolFor(task, n, distractors);
    const idSet = new Set(ids);
    const extra = full ? [] : base.slice(n - task.core_gt_ids.length);
    // The task's pool: its core skills in, as many distractors out (each an incremental put or remove).
    const e0 = performance.now();
    if (!full) {
      for (const id of task.core_gt_ids) index.put(pool.get(id) as PoolSkill);
      for (const id of extra) index.remove(id);
    }
    if (!full) edits.push((performance.now() - e0) / (task.core_gt_ids.length + extra.length));
    const q0 = performance.now();
    const hits = index.search(task.query, 20);
    times.push(performance.now() - q0);
    // find_skills' list: the same search, in search order (searchOrder.ts), at its default size.
    const f0 = performance.now();
    const found = ix.searchInOrder(index, task.query, ix.DEFAULT_SEARCH_LIMIT);
    findTimes.push(performance.now() - f0);
    if (found[0]?.id !== hits[0]?.id) throw new Error(`find_skills' first result is not the index's best on ${task.task_id}`);
    for (const t of [ours, half]) addMetrics(t, task, hits.map((h) => h.id), (id) => idSet.has(id), found.map((h) => h.id));
    const m0 = performance.now();
    ix.findMentions(task.query, index);
    mentionTimes.push(performance.now() - m0);
    const skills = ids.map((id) => catalogSkill(pool.get(id) as PoolSkill));
    const ranking = ix.rankCatalog(index, task.query, skills);
    const top = [...take(ranking.order(), 20)].map((s) => s.id as string);
    if (top[0] !== hits[0]?.id && !ranking.mentions.explicit.length && !ranking.mentions.named.length) throw new Error(`catalog order and search disagree on ${task.task_id}`);
    BUDGETS.forEach((b, i) => {
      const r0 = performance.now();
      const block = prompt.renderCatalog(skills, task.query, { maxTokens: b }, counter, { loadTool: 'load', findTool: 'find_skills', hideLocations: true, index });
      if (b === 4000) blockTimes.push(performance.now() - r0);
      const shown = new Set(block.shownSkills.map((s) => s.id));
      const share = task.core_gt_ids.filter((id) => shown.has(id)).length / task.core_gt_ids.length;
      ours.budget[i] += share;
      half.budget[i] += share;
    });
    // Baseline: today's rankSkills over name and description.
    const b0 = performance.now();
    const { ranked } = prompt.rankSkills(task.query, skills);
    baseTimes.push(performance.now() - b0);
    addMetrics(baseTot, task, ranked.slice(0, 20).map((s) => s.id as string), (id) => idSet.has(id));
    BUDGETS.forEach((b, i) => {
      const shown = new Set([...baselineCut(ranked, skills.length, b)].map((s) => s.id));
      baseTot.budget[i] += task.core_gt_ids.filter((id) => shown.has(id)).length / task.core_gt_ids.length;
    });
    if (!full) {
      for (const id of task.core_gt_ids) if (!distractors.slice(0, n).includes(id)) index.remove(id);
      for (const id of extra) index.put(pool.get(id) as PoolSkill);
    }
  }
  const k = tasks.length;
  const q = summarize(times);
  const fq = summarize(findTimes);
  const bq = summarize(baseTimes);
  console.log(`\n${label === 'full' ? `full pool (${n} skills)` : `${n} skills`}, ${k} scored tasks:`);
  printRow('index   ', ours, k, `query p50 ${q.p50.toFixed(2)} ms, p99 ${q.p99.toFixed(2)} ms (find_skills in search order p50 ${fq.p50.toFixed(2)} ms, p99 ${fq.p99.toFixed(2)} ms; mentions p50 ${summarize(mentionTimes).p50.toFixed(2)} ms, <available_skills> at 4,000 tokens p50 ${summarize(blockTimes).p50.toFixed(2)} ms; load average ${os.loadavg()[0].toFixed(1)})`);
  const byHalf = (f: (t: Totals) => number) => halves.map((t, h) => pct(f(t), tasks.filter((_, i) => i % 2 === h).length)).join(' | ');
  console.log(`  index by half, A | B: Hit@1 ${byHalf((t) => t.hit1)}, find Recall@5 ${byHalf((t) => t.recall5)}, in <available_skills> at ${BUDGETS.map((b, i) => `${b}: ${byHalf((t) => t.budget[i])}`).join(', ')}`);
  printRow('baseline', baseTot, k, `query p50 ${bq.p50.toFixed(2)} ms, p99 ${bq.p99.toFixed(2)} ms`);
  console.log(`  index build ${buildMs.toFixed(0)} ms (${((1000 * buildMs) / n).toFixed(1)} us a skill), heap ${heap.toFixed(1)} MB${edits.length ? `; one-skill put/remove p50 ${summarize(edits).p50.toFixed(3)} ms` : ''}`);
  results.set(label, { ours, base: baseTot, n: k, p50: q.p50, p99: q.p99, findP50: fq.p50, baseP50: bq.p50, blockP50: summarize(blockTimes).p50 });
}

function* take<T>(it: Iterable<T>, k: number): Generator<T> {
  if (k <= 0) return;
  for (const x of it) {
    yield x;
    if (--k <= 0) return;
  }
}

/** Build against discovery: the same skills as SKILL.md files, a cold registry refresh, then the product's index sync. */
async function buildVsDiscovery(pool: Map<string, PoolSkill>, ids: string[]): Promise<{ ratio: number; warmRatio: number; editMs: number; walkMs: number; saveMs: number }> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-routing-'));
  ids.forEach((id, i) => {
    const s = pool.get(id) as PoolSkill;
    const dir = path.join(root, `s${String(i).padStart(5, '0')}`);
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: ${JSON.stringify(s.name)}\ndescription: ${JSON.stringify(s.description)}\n---\n${s.body}`);
  });
  const roots = [{ path: root, scope: 'user' as const }];
  const disc: number[] = [];
  const build: number[] = [];
  let registry = createSkillRegistry({ roots });
  for (let i = 0; i < 3; i++) {
    registry = createSkillRegistry({ roots });
    const d0 = performance.now();
    await registry.refresh();
    disc.push(performance.now() - d0);
    const catalog = new ix.CatalogIndex(ix.hostBodyReader(localDisk));
    const b0 = performance.now();
    await catalog.sync(registry.snapshot().records);
    build.push(performance.now() - b0);
  }
  const d = summarize(disc).median;
  const b = summarize(build).median;
  // A start with the index saved in the state folder: unchanged skills are put back unread and untokenized.
  const host = { ...localDisk, ...nodeWrites };
  const cache = { host, file: path.join(root, '.state', 'skill-index.bin') };
  const saver = new ix.CatalogIndex(ix.hostBodyReader(localDisk), cache);
  await saver.sync(registry.snapshot().records);
  const s0 = performance.now();
  await saver.save();
  const saveMs = performance.now() - s0;
  const fileMb = fs.statSync(cache.file).size / 1048576;
  const warm: number[] = [];
  for (let i = 0; i < 3; i++) {
    const restarted = new ix.CatalogIndex(ix.hostBodyReader(localDisk), cache);
    const w0 = performance.now();
    await restarted.sync(registry.snapshot().records);
    warm.push(performance.now() - w0);
    if (restarted.reused !== ids.length) throw new Error(`the saved index gave ${restarted.reused} of ${ids.length} skills`);
  }
  const w = summarize(warm).median;
  // One skill edited on disk: the catalog rescans (the runtime's source in the extension and the MCP server), the
  // index syncs from its change feed (only that skill is read and tokenized again); beside it, the same sync by a
  // comparison of the whole list (what the runtime did before the feed, and still does for a source without one).
  const skills = await SkillCatalog.open({ roots, registry, stateDir: path.join(root, '.state') });
  const source = skills.skillSource();
  const catalog = new ix.CatalogIndex(ix.hostBodyReader(localDisk));
  await catalog.syncFrom(source);
  const walked = new ix.CatalogIndex(ix.hostBodyReader(localDisk));
  await walked.sync(source.list());
  const file = source.list()[7].location;
  const editTimes: number[] = [];
  const walkTimes: number[] = [];
  for (let i = 0; i < 7; i++) {
    fs.writeFileSync(file, `${fs.readFileSync(file, 'utf8')}\nEdited ${i}: adds a line about spreadsheets.\n`);
    fs.utimesSync(file, new Date(), new Date(Date.now() + (i + 1) * 2000));
    await skills.refresh();
    const e0 = performance.now();
    const change = await catalog.syncFrom(source);
    editTimes.push(performance.now() - e0);
    const w0 = performance.now();
    const walkChange = await walked.sync(source.list());
    walkTimes.push(performance.now() - w0);
    for (const c of [change, walkChange]) if (c.changed !== 1 || c.added + c.removed) throw new Error(`expected one changed skill, the sync saw ${JSON.stringify(c)}`);
  }
  fs.rmSync(root, { recursive: true, force: true });
  const editMs = summarize(editTimes).median;
  const walkMs = summarize(walkTimes).median;
  console.log(`  ${ids.length} skills: index build (sync of the registry's records, bodies read through the host) ${b.toFixed(0)} ms vs discovery ${d.toFixed(0)} ms = ${(b / d).toFixed(2)}x cold; start from the saved index ${w.toFixed(0)} ms = ${(w / d).toFixed(2)}x (goal <= 0.5x; file ${fileMb.toFixed(1)} MB, saved in ${saveMs.toFixed(0)} ms); one edited skill re-indexed by a sync from the catalog's change feed in ${editMs.toFixed(3)} ms (goal <= 5 ms; by a comparison of the whole list ${walkMs.toFixed(3)} ms; load average ${os.loadavg()[0].toFixed(1)})`);
  return { ratio: b / d, warmRatio: w / d, editMs, walkMs, saveMs };
}

async function main(): Promise<void> {
  const { pool, tasks, distractors } = loadRouting();
  console.log(`routing: ${tasks.length} scored tasks, ${pool.size} skills in the pool (timings are wall time on this machine: noisy when it is shared)`);
  // ROUTING_BUILD_ONLY=1: only the build and re-index measures below (the ranking runs take minutes at 10,000).
  if (process.env.ROUTING_BUILD_ONLY !== '1') for (const label of sizes) await runSize(label, pool, tasks, distractors);
  console.log('\nbuild against discovery of the same skills (median of 3):');
  const sync = [];
  for (const n of [1000, 10000]) if (sizes.includes(String(n))) sync.push({ n, ...(await buildVsDiscovery(pool, distractors.slice(0, n))) });
  const g = results.get(GOALS_AT);
  if (g) {
    const line = (name: string, ok: boolean, value: string) => console.log(`  ${name}: ${value} ${ok ? 'PASS' : 'MISS'}`);
    console.log(`\ngoals at ${GOALS_AT} skills:`);
    line('Hit@1 >= 75%', g.ours.hit1 / g.n >= 0.75, `${pct(g.ours.hit1, g.n)} (baseline ${pct(g.base.hit1, g.n)})`);
    line('core skill in the 4,000-token list >= 95%', g.ours.budget[1] / g.n >= 0.95, `${pct(g.ours.budget[1], g.n)} (baseline ${pct(g.base.budget[1], g.n)})`);
    line('find_skills Recall@5 >= 90%', g.ours.recall5 / g.n >= 0.9, `${pct(g.ours.recall5, g.n)} (baseline ${pct(g.base.recall5, g.n)})`);
    line('query p50 <= 5 ms (find_skills: search and its order)', g.findP50 <= 5, `${g.findP50.toFixed(2)} ms (the index search alone ${g.p50.toFixed(2)} ms; baseline ${g.baseP50.toFixed(2)} ms)`);
    const s = sync.find((x) => x.n === 10000);
    if (s) {
      line('build <= 0.5x discovery (start from the saved index)', s.warmRatio <= 0.5, `${s.warmRatio.toFixed(2)}x (cold build ${s.ratio.toFixed(2)}x)`);
      line('one-skill re-index <= 5 ms', s.editMs <= 5, `${s.editMs.toFixed(3)} ms (whole-list comparison ${s.walkMs.toFixed(3)} ms)`);
      console.log(`  saving the index (every skill's terms, to the state folder): ${s.saveMs.toFixed(0)} ms (no goal; load average ${os.loadavg()[0].toFixed(1)})`);
    }
    // Every chat turn pays for the block: its cost should follow what it lists, not the catalog's size.
    const small = results.get('1000');
    const ratio = small ? ` = ${(g.blockP50 / small.blockP50).toFixed(1)}x the 1,000-skill block (${small.blockP50.toFixed(2)} ms)` : '';
    console.log(`  <available_skills> at 4,000 tokens for a request (ranking, mentions, packing, token counts) p50: ${g.blockP50.toFixed(2)} ms${ratio} (no goal)`);
    for (const small of ['100', '1000']) {
      const r = results.get(small);
      if (r) line(`${small} skills: Hit@1 and 4,000-token share not below the baseline`, r.ours.hit1 >= r.base.hit1 && r.ours.budget[1] >= r.base.budget[1], `Hit@1 ${pct(r.ours.hit1, r.n)} vs ${pct(r.base.hit1, r.n)}, list ${pct(r.ours.budget[1], r.n)} vs ${pct(r.base.budget[1], r.n)}`);
    }
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
