// Discovery and parse of 1,000 and 10,000 generated skills (a cold registry refresh: list the root,
// read every SKILL.md, parse its frontmatter, check it, apply precedence; the sha256 digest of a small
// file is computed when first asked for, and what asking for all of them costs is printed) vs a raw
// readdirSync + readFileSync of the same files, measured interleaved in one run. Goal (issue 2): <= 1.5x.
// A warm rescan (nothing changed, every file skipped by mtime+size) is printed for information.
// The registry measured is the esbuild bundle of src/core/registry (bundle, platform node, cjs, as
// scripts/build.mjs builds dist/), built into a temp file and required: the product ships that bundle,
// not the tsx-transformed sources (tsx's keepNames wrapping alone costs ~0.5 us per skill).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as Registry from '../../src/core/registry';
import { loadBundled, reportRatio, summarize } from './benchUtil';

const { createSkillRegistry, parseOnlyChecker } = loadBundled<typeof Registry>('src/core/registry/index.ts');

function generate(count: number): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `bench-discovery-${count}-`));
  for (let i = 0; i < count; i++) {
    const name = `skill-${String(i).padStart(5, '0')}`;
    fs.mkdirSync(path.join(root, name));
    fs.writeFileSync(
      path.join(root, name, 'SKILL.md'),
      `---\nname: ${name}\ndescription: Generated skill number ${i}. Use when the benchmark asks for skill ${i}.\nlicense: Apache-2.0\n---\n\n# ${name}\n\nStep one.\n\n---\n\nStep two.\n`,
    );
  }
  return root;
}

function raw(root: string): number {
  let bytes = 0;
  for (const name of fs.readdirSync(root)) bytes += fs.readFileSync(path.join(root, name, 'SKILL.md')).length;
  return bytes;
}

const cpuTimes = new Map<string, number[]>();

/** Wall time of one run (ms); the process's CPU time is kept under `key` for the information line. */
async function time(fn: () => unknown, key = ''): Promise<number> {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  await fn();
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  const c = process.cpuUsage(c0);
  if (key) cpuTimes.set(key, [...(cpuTimes.get(key) ?? []), (c.user + c.system) / 1000]);
  return wall;
}

async function main(): Promise<void> {
  let ok = true;
  // Enough warm-up runs for the JIT to settle (the validator's code is compiled lazily): steady state is compared.
  for (const [count, runs, warmup] of [
    [1_000, 30, 20],
    [10_000, 15, 4],
  ] as const) {
    const root = generate(count);
    const roots = [{ path: root, scope: 'user' as const }];
    const cold = async () => {
      const snap = await createSkillRegistry({ roots }).refresh();
      if (snap.records.length !== count) throw new Error(`found ${snap.records.length} of ${count} skills`);
    };
    for (let i = 0; i < warmup; i++) {
      raw(root);
      await cold();
    }
    const rawTimes: number[] = [];
    const ourTimes: number[] = [];
    // Interleaved, so load from other processes on the machine hits both sides alike. No forced gc() between
    // runs: a full collection before each run flushes the registry's compiled code and triples its time.
    for (let i = 0; i < runs; i++) {
      rawTimes.push(await time(() => raw(root), `raw${count}`));
      ourTimes.push(await time(cold, `ours${count}`));
    }
    const r = summarize(rawTimes).median;
    const o = summarize(ourTimes).median;
    ok = reportRatio(`discovery+parse of ${count} skills (bundled registry) vs readdirSync+readFileSync (median of ${runs})`, o, r, 1.5) && ok;
    const rc = summarize(cpuTimes.get(`raw${count}`)!).median;
    const oc = summarize(cpuTimes.get(`ours${count}`)!).median;
    console.log(`  info: CPU time ${oc.toFixed(1)} ms vs ${rc.toFixed(1)} ms = ${(oc / rc).toFixed(3)}x (not inflated by other processes on the machine)`);

    const digestTimes: number[] = [];
    for (let i = 0; i < runs; i++) {
      const { records } = await createSkillRegistry({ roots }).refresh();
      digestTimes.push(await time(() => records.reduce((n, r) => n + r.digest.length, 0)));
    }
    console.log(`  info: asking every record's digest after a refresh: ${summarize(digestTimes).median.toFixed(1)} ms more`);

    const parseOnly: number[] = [];
    for (let i = 0; i < runs; i++) parseOnly.push(await time(() => createSkillRegistry({ roots, check: parseOnlyChecker }).refresh()));
    console.log(`  info: without the validator's content rules (parse only): ${summarize(parseOnly).median.toFixed(1)} ms = ${(summarize(parseOnly).median / r).toFixed(3)}x`);

    const warm = createSkillRegistry({ roots });
    await warm.refresh();
    const rescans: number[] = [];
    for (let i = 0; i < runs; i++) rescans.push(await time(() => warm.refresh()));
    const snap = warm.snapshot();
    console.log(
      `  info: rescan of ${count} unchanged skills ${summarize(rescans).median.toFixed(1)} ms (${snap.stats.reused} reused); longest synchronous slice ${snap.stats.longestSliceMs.toFixed(1)} ms wall / ${snap.stats.longestSliceCpuMs.toFixed(1)} ms CPU`,
    );
    fs.rmSync(root, { recursive: true, force: true });
  }
  process.exitCode = ok ? 0 : 1;
}

void main();
