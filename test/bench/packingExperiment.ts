// Issue 24 experiment (not part of `npm run bench`): `<available_skills>` as a packing problem. What each entry
// costs in the block, and how many tasks' right skills are in the block at 2,000 / 4,000 / 8,000 tokens when the
// tail of the ranking is listed by name only (`<more_skills>`, renderCatalog's `shares.described`) instead of by
// a first sentence. The real renderCatalog is called for every setting; pools as the routing bench builds them.
// Every setting is printed for half A (even positions in tasks.jsonl) and half B (odd); settings are read off A.
// Beside the share in the block: the share listed with a description (whole or first sentence), so the cost of
// a names-only tail (fewer described entries) is in view.
//
//   nice node --max-old-space-size=6000 --import tsx test/bench/packingExperiment.ts [sizes] [settings]
//
// sizes: comma list of 100, 1000, 10000 (default 100,1000,10000). settings: comma list of full:described
// shares (default 0.3:1,0.3:0.8,0.3:0.6,0.3:0.5,0.3:0.4,0.3:0.3,0.2:0.5). BM25F_ONLY=1: the index without its
// query-likelihood share (the order before it), to measure the packing alone.
//
// Results (2026-11-27, BM25F_ONLY=1, load 15-28; "in the block, with a description" per half, A | B):
//   entry cost (o200k tokens, mean of 2,000 skills): tags 16.0, name 4.5, whole description 56.0, first sentence
//   13.2, a location line 22.1; an entry whole 78.8 (99.8 with its location), by first sentence 36.1, by name 5.5.
//   10,000 skills                   2,000 tokens               4,000 tokens               8,000 tokens
//     described 1 (before)          92.2 92.2 | 89.7 89.7      96.6 96.6 | 92.2 92.2      96.1 96.1 | 93.6 93.6
//     described 0.8                 95.6 91.4 | 92.6 87.6      96.1 95.6 | 93.6 92.2      97.1 96.1 | 95.1 92.6
//     described 0.7                 96.1 91.4 | 92.6 87.6      96.1 95.1 | 95.1 90.7      97.1 95.6 | 95.1 92.6
//     described 0.6                 96.1 90.9 | 93.6 86.7      97.1 92.2 | 95.1 89.7      97.1 95.6 | 95.8 92.6
//     described 0.5                 96.1 90.4 | 93.6 85.7      97.1 92.2 | 95.1 87.6      97.1 95.6 | 96.6 92.2
//   1,000 skills
//     described 1 (before)          97.1 97.1 | 95.1 95.1      98.5 98.5 | 96.6 96.6     100.0 100.0 | 98.8 98.8
//     described 0.8                 98.5 97.1 | 96.6 93.6     100.0 97.1 | 98.8 95.8     100.0 100.0 | 99.3 98.8
//     described 0.6                100.0 97.1 | 98.8 93.6     100.0 97.1 | 99.3 95.1     100.0 98.5 | 100.0 96.6
//   100 skills: 100.0 on A at every setting and budget; B 99.3 -> 100.0 at 2,000 tokens.
//   (4,000 tokens with the default 16,000-character cap: within 1.5 points of 4,000 tokens alone everywhere.)
//   Chosen on A: described 0.6, the largest share that reaches A's best at every budget and size. The cost is in
//   the second number: fewer right skills are listed with a description (10,000, 4,000 tokens: A 96.6 -> 92.2).
//   At 4,000 tokens a block holds about 90 described skills before, about 60 described and 300 by name after.
//   One reading did not add up: described 1 at 10,000 gives A 96.1 at 8,000 tokens under 96.6 at 4,000; a
//   per-task rerun (A, 4,000 vs 8,000 vs described 0.8) found every task's right skills at 8,000 that 4,000 had.
import { DEFAULT_WEIGHTS, SkillIndex } from '../../src/core/index/skillIndex';
import { o200kCounter, renderCatalog, renderCatalogEntry, shortDescription, type CatalogSkill } from '../../src/core/prompt';
import { namedEntry } from '../../src/core/prompt/catalog';
import { loadRouting, poolFor, routingDataPresent, type PoolSkill } from './routingData';

if (!routingDataPresent()) {
  console.log('experiment not run: the routing data is not present (set ROUTING_DIR)');
  process.exit(0);
}

const sizes = (process.argv[2] ?? '100,1000,10000').split(',').map(Number);
const settings = (process.argv[3] ?? '0.3:1,0.3:0.8,0.3:0.6,0.3:0.5,0.3:0.4,0.3:0.3,0.2:0.5').split(',').map((x) => {
  const [full, described] = x.split(':').map(Number);
  return { full, described };
});
const BUDGETS = [{ maxTokens: 2000 }, { maxTokens: 4000 }, { maxTokens: 8000 }, { maxTokens: 4000, maxChars: 16000 }];
const label = (b: { maxTokens: number; maxChars?: number }) => `${b.maxTokens}${b.maxChars ? `/${b.maxChars}ch` : ''}`;

const memo = new Map<string, number>();
const counter = {
  count: (t: string) => {
    let n = memo.get(t);
    if (n === undefined) memo.set(t, (n = o200kCounter.count(t)));
    return n;
  },
  atMost: (t: string) => Buffer.byteLength(t, 'utf8'),
};

const { pool, tasks, distractors } = loadRouting();
const asCatalog = (s: PoolSkill): CatalogSkill => ({ id: s.id, name: s.name, description: s.description });

// What an entry costs (tokens, o200k), over the first 2,000 distractors, with a location as a user install would show it.
{
  const sample = distractors.slice(0, 2000).map((id) => asCatalog(pool.get(id) as PoolSkill));
  const avg = (f: (s: CatalogSkill) => number) => (sample.reduce((n, s) => n + f(s), 0) / sample.length).toFixed(1);
  const loc = (s: CatalogSkill) => `/home/user/.agents/skills/${s.name}/SKILL.md`;
  console.log(`entry cost, tokens (mean of ${sample.length}): tags ${avg(() => counter.count(renderCatalogEntry({ name: '', description: '' }, true)))}, name ${avg((s) => counter.count(s.name))}, whole description ${avg((s) => counter.count(s.description.replace(/\s+/g, ' ').trim()))}, first sentence ${avg((s) => counter.count(shortDescription(s.description)))}, location line ${avg((s) => counter.count(`\n<location>${loc(s)}</location>`))}; entry: whole ${avg((s) => counter.count(renderCatalogEntry(s, true)) + 1)}, whole with location ${avg((s) => counter.count(renderCatalogEntry({ ...s, location: loc(s) })) + 1)}, first sentence ${avg((s) => counter.count(renderCatalogEntry(s, true, true)) + 1)}, name only ${avg((s) => counter.count(namedEntry(s)) + 1)}`);
}

for (const n of sizes) {
  const base = distractors.slice(0, n);
  const index = new SkillIndex(process.env.BM25F_ONLY === '1' ? { ...DEFAULT_WEIGHTS, likelihood: undefined } : DEFAULT_WEIGHTS);
  for (const id of base) index.put(pool.get(id) as PoolSkill);
  // Per setting, budget and half: in the block, listed with a description; and the entries' mean counts.
  const tot = settings.map(() => BUDGETS.map(() => [0, 1].map(() => ({ inList: 0, described: 0, shown: 0, named: 0, k: 0 }))));
  tasks.forEach((task, i) => {
    const ids = poolFor(task, n, distractors);
    const extra = base.slice(n - task.core_gt_ids.length);
    for (const id of task.core_gt_ids) index.put(pool.get(id) as PoolSkill);
    for (const id of extra) index.remove(id);
    const skills = ids.map((id) => asCatalog(pool.get(id) as PoolSkill));
    settings.forEach((st, si) =>
      BUDGETS.forEach((b, bi) => {
        const block = renderCatalog(skills, task.query, b, counter, { loadTool: 'load_skills', findTool: 'find_skills', hideLocations: true, index, shares: st });
        const described = new Set(block.shownSkills.slice(0, block.shownSkills.length - block.namedOnly).map((s) => s.id));
        const shown = new Set(block.shownSkills.map((s) => s.id));
        const t = tot[si][bi][i % 2];
        const share = (set: Set<string | undefined>) => task.core_gt_ids.filter((id) => set.has(id)).length / task.core_gt_ids.length;
        t.inList += share(shown);
        t.described += share(described);
        t.shown += block.shownSkills.length;
        t.named += block.namedOnly;
        t.k++;
      }),
    );
    for (const id of task.core_gt_ids) if (!base.includes(id)) index.remove(id);
    for (const id of extra) index.put(pool.get(id) as PoolSkill);
  });
  console.log(`\n${n} skills (${tasks.length} tasks; A | B: in the block, with a description; entries listed, of them by name only):`);
  settings.forEach((st, si) => {
    const cells = BUDGETS.map((b, bi) => {
      const [a, bb] = tot[si][bi];
      const f = (t: typeof a) => `${((100 * t.inList) / t.k).toFixed(1)} ${((100 * t.described) / t.k).toFixed(1)}`;
      return `${label(b)}: ${f(a)} | ${f(bb)} (${(a.shown / a.k).toFixed(0)}, ${(a.named / a.k).toFixed(0)} named)`;
    });
    console.log(`  full ${st.full} described ${st.described}  ${cells.join('   ')}`);
  });
}
