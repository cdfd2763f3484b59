// Issue 23 measurement (not part of npm run bench): what one overlay lookup of a read-only skill costs, for a plugin
// skill of N files (default 500). `SkillCatalog.historyKey` is the id plus a digest of the install folder's path (not
// of its files), so its cost does not grow with N; this prints it beside the lookups around it. Then the place where
// it added up: `resolve` over M plugin skills (default 10,000) with an empty hidden list and with one skill archived
// (each `entries()` asks the hidden list about every read-only record, by its key).
//   node --import tsx test/bench/overlayLookupCost.ts [N=500] [calls=200000] [M=10000]
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SkillCatalog } from '../../src/core/catalog';
import { effectiveRoot } from '../../src/core/runtime/effectiveFiles';
import { localDisk } from '../../src/core/host/localDisk';

const N = Number(process.argv[2] ?? 500);
const CALLS = Number(process.argv[3] ?? 200000);
const M = Number(process.argv[4] ?? 10000);

/** CPU per `resolve` over M plugin skills, with the hidden list empty and with one skill hidden. */
async function resolveCost(base: string): Promise<string> {
  const root = path.join(base, 'many');
  for (let i = 0; i < M; i++) {
    fs.mkdirSync(path.join(root, `s${i}`), { recursive: true });
    fs.writeFileSync(path.join(root, `s${i}`, 'SKILL.md'), `---\nname: s${i}\ndescription: Skill ${i}. Use when testing.\n---\n\n# S\n`);
  }
  const catalog = await SkillCatalog.open({ roots: [{ path: root, scope: 'extension', source: 'acme.tools' }], stateDir: path.join(base, 'state-many') });
  const per = () => {
    const t = process.cpuUsage();
    for (let i = 2; i < 22; i++) catalog.resolve(`s${i}`);
    const u = process.cpuUsage(t);
    return ((u.user + u.system) / 20 / 1000).toFixed(1);
  };
  per(); // warm-up
  const empty = per();
  await catalog.setHidden(catalog.resolve('s1').id, true);
  return `${M} plugin skills: resolve ${empty} ms CPU with the hidden list empty, ${per()} ms with one skill hidden`;
}

function cpuMicros(f: () => void, calls: number): number {
  const t = process.cpuUsage();
  f();
  const u = process.cpuUsage(t);
  return (u.user + u.system) / calls;
}

(async () => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'overlay-cost-'));
  const dir = path.join(base, 'ext', 'big');
  fs.mkdirSync(path.join(dir, 'references'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'SKILL.md'), '---\nname: big\ndescription: A skill of many files. Use when testing.\n---\n\n# Big\n');
  for (let i = 1; i < N; i++) fs.writeFileSync(path.join(dir, 'references', `f${i}.md`), `file ${i}\n`);
  const catalog = await SkillCatalog.open({ roots: [{ path: path.join(base, 'ext'), scope: 'extension', source: 'acme.tools' }], stateDir: path.join(base, 'state') });
  const source = catalog.skillSource();
  const entry = catalog.resolve('big');
  let sink = 0;
  const key = cpuMicros(() => { for (let i = 0; i < CALLS; i++) sink += catalog.historyKey(entry).length; }, CALLS);
  const lookup = cpuMicros(() => { for (let i = 0; i < CALLS; i++) sink += source.overlayDir!(entry.id)!.length; }, CALLS);
  const skill = { id: entry.id, root_dir: entry.skillDir };
  const roots = 2000;
  const t = process.cpuUsage();
  for (let i = 0; i < roots; i++) sink += (await effectiveRoot(localDisk, source, skill, `references/f${1 + (i % (N - 1))}.md`)).length;
  const u = process.cpuUsage(t);
  const effective = (u.user + u.system) / roots;
  console.log(`${N} files: historyKey ${key.toFixed(2)} µs CPU per call; skillSource().overlayDir ${lookup.toFixed(2)} µs; effectiveRoot (the read path's lookup, with its stat) ${effective.toFixed(1)} µs  [${sink > 0 ? 'ok' : ''}]`);
  if (M > 0) console.log(await resolveCost(base));
  fs.rmSync(base, { recursive: true, force: true });
})();
