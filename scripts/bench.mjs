// `npm run bench`: runs every test/bench/*.bench.ts in turn (each prints its own ratios against a
// baseline measured in the same run) after building the bundles they may need.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const only = process.argv.slice(2);
const build = spawnSync('node', ['scripts/build.mjs'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const files = readdirSync('test/bench')
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
let failed = 0;
for (const f of files) {
  console.log(`\n### ${f}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', `test/bench/${f}`], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
console.log(`\n${files.length - failed} benchmark files ran, ${failed} failed`);
process.exit(failed ? 1 : 0);
