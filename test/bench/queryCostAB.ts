// Issue 24 (not part of `npm run bench`): the skill index's query cost against an earlier commit's, in one process,
// interleaved query by query (so both sides see the same machine load), and whether the two give the same results.
// Both sides are bundled the way the product ships (loadBundled's esbuild settings); the earlier side's `src` is
// exported with `git archive`. Pool: the routing benchmark's first n distractors; queries: its 68 task texts, each
// searched cold (its reading is not cached: 68 requests cycle through the index's cache of 8).
//
//   nice node --max-old-space-size=6000 --import tsx test/bench/queryCostAB.ts <ref> [n] [rounds]
//
// Prints p50 of index.search(request, 20) and of searchInOrder(request, 10) on each side, the ratio, the number
// of requests whose results (ids, scores, confidences) differ, and the load average.
import { execFileSync } from 'node:child_process';
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as IndexModule from '../../src/core/index';
import { loadBundled } from './benchUtil';
import { loadRouting, routingDataPresent, type PoolSkill } from './routingData';

if (!routingDataPresent() || !process.argv[2]) {
  console.log('usage: queryCostAB.ts <git ref> [n] [rounds] (needs the routing data, set ROUTING_DIR)');
  process.exit(0);
}
const repo = path.join(__dirname, '../..');
const ref = process.argv[2];
const n = Number(process.argv[3] ?? 10000);
const rounds = Number(process.argv[4] ?? 6);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'query-ab-'));
const tar = execFileSync('git', ['-C', repo, 'archive', ref, 'src'], { maxBuffer: 1 << 30 });
execFileSync('tar', ['-x', '-C', dir], { input: tar });
const out = path.join(dir, 'before.js');
esbuild.buildSync({ entryPoints: [path.join(dir, 'src/core/index/index.ts')], outfile: out, bundle: true, platform: 'node', target: 'node20', format: 'cjs', logLevel: 'warning', external: ['vscode'] });
const before = createRequire(__filename)(out) as typeof IndexModule;
const after = loadBundled<typeof IndexModule>('src/core/index/index.ts');

const { pool, tasks, distractors } = loadRouting();
const sides = [before, after].map((m) => {
  const index = new m.SkillIndex();
  for (const id of distractors.slice(0, n)) index.put(pool.get(id) as PoolSkill);
  return { m, index, search: [] as number[], find: [] as number[] };
});
let differ = 0;
for (let r = 0; r < rounds; r++) {
  for (const t of tasks) {
    const seen: string[] = [];
    // Alternate which side goes first.
    for (const side of r % 2 ? [...sides].reverse() : sides) {
      let t0 = performance.now();
      const hits = side.index.search(t.query, 20);
      side.search.push(performance.now() - t0);
      t0 = performance.now();
      const found = side.m.searchInOrder(side.index, t.query, 10);
      side.find.push(performance.now() - t0);
      seen.push(JSON.stringify([hits, found]));
    }
    if (seen[0] !== seen[1]) differ++;
  }
}
const p50 = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const [b, a] = sides;
console.log(`${n} skills, ${rounds} x ${tasks.length} requests: search p50 ${ref} ${p50(b.search).toFixed(3)} ms, now ${p50(a.search).toFixed(3)} ms (${(p50(a.search) / p50(b.search)).toFixed(2)}x); find_skills order p50 ${p50(b.find).toFixed(3)} -> ${p50(a.find).toFixed(3)} ms (${(p50(a.find) / p50(b.find)).toFixed(2)}x); results differing ${differ} of ${rounds * tasks.length}; load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
