// Discovery of 100 Agent Plugins with 10 skills each (issue 13 point 7): read every plugin (manifest found among
// the layouts, parsed and checked, skills/ listed, every skill held inside the plugin through links), then a cold
// registry refresh of their 1,000 skills; against the raw floor for the same files: readFileSync of each
// plugin.json, readdirSync of each skills/ and readFileSync of each SKILL.md. Measured interleaved in one run.
// Goal: the discovery goal of issue 2, <= 1.5x. A rescan through the PluginShelf (nothing changed) is printed.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as Bundle from './pluginsEntry';
import { loadBundled, reportRatio, summarize } from './benchUtil';

const { createSkillRegistry, pluginSkillRoots, readPlugins, PluginShelf } = loadBundled<typeof Bundle>('test/bench/pluginsEntry.ts');
const PLUGINS = 100;
const SKILLS = 10;
const RUNS = 60;

function generate(): string[] {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-plugins-'));
  const dirs: string[] = [];
  for (let p = 0; p < PLUGINS; p++) {
    const name = `plugin-${String(p).padStart(3, '0')}`;
    const dir = path.join(base, name);
    fs.mkdirSync(path.join(dir, 'skills'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'plugin.json'), JSON.stringify({ $schema: 'https://agent-plugins.org/schemas/1.0.0/plugin.schema.json', name, version: '1.0.0', description: `Generated plugin ${p}.` }));
    for (let s = 0; s < SKILLS; s++) {
      const skill = `${name}-skill-${s}`;
      fs.mkdirSync(path.join(dir, 'skills', skill));
      fs.writeFileSync(path.join(dir, 'skills', skill, 'SKILL.md'), `---\nname: ${skill}\ndescription: Generated skill ${s} of plugin ${p}. Use when the benchmark asks for it.\n---\n\n# ${skill}\n\nStep one.\n`);
    }
    dirs.push(dir);
  }
  return dirs;
}

function raw(dirs: readonly string[]): number {
  let bytes = 0;
  for (const dir of dirs) {
    bytes += fs.readFileSync(path.join(dir, 'plugin.json')).length;
    for (const name of fs.readdirSync(path.join(dir, 'skills'))) bytes += fs.readFileSync(path.join(dir, 'skills', name, 'SKILL.md')).length;
  }
  return bytes;
}

async function ours(dirs: readonly string[]): Promise<void> {
  const roots = pluginSkillRoots(readPlugins(dirs));
  const snap = await createSkillRegistry({ roots }).refresh();
  if (snap.records.length !== PLUGINS * SKILLS) throw new Error(`found ${snap.records.length} of ${PLUGINS * SKILLS} skills`);
}

/** Wall time of one run (ms); with `cpu`, the process's CPU time of the run is pushed there too. */
async function time(fn: () => unknown, cpu?: number[]): Promise<number> {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  await fn();
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  if (cpu) {
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return wall;
}

async function main(): Promise<void> {
  const dirs = generate();
  for (let i = 0; i < 20; i++) {
    raw(dirs);
    await ours(dirs);
  }
  const rawTimes: number[] = [];
  const ourTimes: number[] = [];
  const rawCpu: number[] = [];
  const ourCpu: number[] = [];
  // 60 interleaved pairs: a run of either side is 10-15 ms, and 30 left a spread of +-0.06 in the ratio between runs.
  for (let i = 0; i < RUNS; i++) {
    rawTimes.push(await time(() => raw(dirs), rawCpu));
    ourTimes.push(await time(() => ours(dirs), ourCpu));
  }
  const ok = reportRatio(`discovery of ${PLUGINS} plugins x ${SKILLS} skills (read plugins + registry) vs readFileSync plugin.json + readdirSync + readFileSync (median of ${RUNS})`, summarize(ourTimes).median, summarize(rawTimes).median, 1.5);
  const rc = summarize(rawCpu).median;
  const oc = summarize(ourCpu).median;
  console.log(`  info: CPU time ${oc.toFixed(1)} ms vs ${rc.toFixed(1)} ms = ${(oc / rc).toFixed(3)}x (not inflated by other processes on the machine)`);
  const shelf = new PluginShelf();
  shelf.read(dirs);
  const rescans: number[] = [];
  for (let i = 0; i < 30; i++) rescans.push(await time(() => shelf.read(dirs)));
  console.log(`  info: reading the same ${PLUGINS} unchanged plugins again through the PluginShelf: ${summarize(rescans).median.toFixed(2)} ms`);
  fs.rmSync(path.dirname(dirs[0]), { recursive: true, force: true });
  process.exitCode = ok ? 0 : 1;
}

void main();
