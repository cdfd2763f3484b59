// Not a bench (npm run bench runs *.bench.ts only): the cold refresh of discovery.bench's generated skills, repeated so a
// CPU profile of it has enough samples. `node --import tsx --cpu-prof --cpu-prof-interval 50 test/bench/profileDiscovery.ts
// 1000 600` (count, runs; a third argument measures the parse-only checker) prints the mean time of a refresh and
// leaves a .cpuprofile to open in Chrome's DevTools or summarize by function.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as Registry from '../../src/core/registry';
import { loadBundled } from './benchUtil';

const { createSkillRegistry, parseOnlyChecker } = loadBundled<typeof Registry>('src/core/registry/index.ts');
const count = Number(process.argv[2] ?? 1000);
const runs = Number(process.argv[3] ?? 200);
const root = fs.mkdtempSync(path.join(os.tmpdir(), `prof-discovery-`));
for (let i = 0; i < count; i++) {
  const name = `skill-${String(i).padStart(5, '0')}`;
  fs.mkdirSync(path.join(root, name));
  fs.writeFileSync(path.join(root, name, 'SKILL.md'), `---\nname: ${name}\ndescription: Generated skill number ${i}. Use when the benchmark asks for skill ${i}.\nlicense: Apache-2.0\n---\n\n# ${name}\n\nStep one.\n\n---\n\nStep two.\n`);
}
const roots = [{ path: root, scope: 'user' as const }];
void (async () => {
  const check = process.argv[4] ? parseOnlyChecker : undefined;
  for (let i = 0; i < 20; i++) await createSkillRegistry({ roots, check }).refresh();
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) await createSkillRegistry({ roots, check }).refresh();
  console.log(`${((performance.now() - t0) / runs).toFixed(2)} ms per refresh`);
  fs.rmSync(root, { recursive: true, force: true });
})();
