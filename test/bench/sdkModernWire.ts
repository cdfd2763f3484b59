// Wall time of 2026-07-28 requests over stdio, the SDK's own Server (the default) against our encoder (kept for this
// comparison: AGENT_SKILLS_MCP_MODERN_SERVER=ours), two `agent-skills mcp` processes of the same dist/cli.js side by side,
// interleaved request by request with the baselines of `npm run bench` (core invoke('load'), fs.readFile), so a
// change of load on the machine falls on both alike. Prints per round the p50 over the baseline of each, the load
// average, and each server's CPU per load_skills + resources/read pair (all its threads, and its main thread: the
// part on the answer's path; /proc/<pid>/task/*/schedstat). Run after `npm run build`:
//   node --import tsx test/bench/sdkModernWire.ts [rounds] [calls per round] [label=path/to/cli.js ...]
// With `label=cli.js` arguments, those builds are compared instead (each on the SDK's Server): e.g. a copy of dist/
// built from an earlier commit against this one, `base=/tmp/base/dist/cli.js new=dist/cli.js`.
import { promises as fsp } from 'node:fs';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadBundled, summarize } from './benchUtil';
import { rawStdio, serverArgs, writeFixtureSkills } from '../cli/mcpSupport';

type CatalogMod = typeof import('../../src/core/catalog');
type RuntimeMod = typeof import('../../src/core/runtime');
const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
/** CPU time (ns) of a process's threads, or of its main thread only. */
const schedNs = (pid: number, task?: number) =>
  (task ? [String(task)] : fs.readdirSync(`/proc/${pid}/task`)).reduce((n, t) => {
    try {
      return n + Number(fs.readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      return n; // a thread that ended meanwhile
    }
  }, 0);
const signed = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 3);
  const calls = Number(process.argv[3] ?? 300);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-sdk-wire-'));
  const skills = path.join(dir, 'skills');
  writeFixtureSkills(skills);
  const { SkillCatalog } = loadBundled<CatalogMod>('src/core/catalog/index.ts');
  const { createSkillsRuntime } = loadBundled<RuntimeMod>('src/core/runtime/index.ts');
  const catalog = await SkillCatalog.open({ roots: [{ path: skills, scope: 'workspace' }], stateDir: path.join(dir, 'direct-state') });
  const rt = createSkillsRuntime({ source: catalog.skillSource(), stateDir: path.join(dir, 'direct-state'), loadMode: 'session' });
  const builds = process.argv.slice(4).map((a) => a.split('=') as [string, string]);
  const servers: Record<string, ReturnType<typeof rawStdio>> = builds.length
    ? Object.fromEntries(builds.map(([label, cli]) => [label, rawStdio([path.resolve(cli), ...serverArgs(skills, path.join(dir, `${label}-state`)).slice(1)], { AGENT_SKILLS_MCP_MODERN_SERVER: '' })]))
    : {
        ours: rawStdio(serverArgs(skills, path.join(dir, 'ours-state')), { AGENT_SKILLS_MCP_MODERN_SERVER: 'ours' }),
        sdk: rawStdio(serverArgs(skills, path.join(dir, 'sdk-state')), { AGENT_SKILLS_MCP_MODERN_SERVER: '' }),
      };
  const labels = Object.keys(servers);
  const handles: Record<string, string | undefined> = {};
  const skillMd = path.join(skills, 'alpha', 'SKILL.md');
  const check = (r: Record<string, any>) => { // eslint-disable-line @typescript-eslint/no-explicit-any
    if (!r.result || r.result.isError) throw new Error(JSON.stringify(r).slice(0, 300));
    return r;
  };
  for (let round = 0; round < rounds; round++) {
    const t: Record<string, number[]> = { direct: [], fs: [], ...Object.fromEntries(labels.flatMap((v) => [[`${v} load`, []], [`${v} read`, []]])) };
    const load0 = os.loadavg()[0];
    const cpu0 = labels.map((v) => [schedNs(servers[v].child.pid!), schedNs(servers[v].child.pid!, servers[v].child.pid!)]);
    for (let i = 0; i < calls + 20; i++) {
      const sample: Record<string, number> = {};
      let t0 = process.hrtime.bigint();
      const d = await rt.invoke('load', { names: ['alpha'] }, { sessionId: 'bench' });
      sample.direct = ms(t0);
      if (!d.ok) throw new Error(JSON.stringify(d));
      t0 = process.hrtime.bigint();
      await fsp.readFile(skillMd);
      sample.fs = ms(t0);
      // Which server goes first alternates, so neither always follows the other.
      for (const v of i % 2 ? labels : [...labels].reverse()) {
        t0 = process.hrtime.bigint();
        const r = check(await servers[v].request('tools/call', { name: 'load_skills', arguments: { names: ['alpha'], ...(handles[v] ? { session: handles[v] } : {}) } }));
        sample[`${v} load`] = ms(t0);
        handles[v] ??= r.result._meta['io.github.agent-skills/session'];
        t0 = process.hrtime.bigint();
        const rr = check(await servers[v].request('resources/read', { uri: 'skill://alpha/SKILL.md' }));
        sample[`${v} read`] = ms(t0);
        if ((rr.result._meta['io.modelcontextprotocol/serverInfo'].title === undefined) !== (v === 'ours' && !builds.length)) throw new Error(`the ${v} server did not answer through ${v === 'ours' && !builds.length ? 'our encoder' : 'the SDK'} (serverInfo's title tells them apart)`);
      }
      if (i >= 20) for (const [k, v] of Object.entries(sample)) t[k].push(v);
    }
    const p50 = (k: string) => summarize(t[k]).p50;
    const cpu = labels.map((v, j) => [schedNs(servers[v].child.pid!), schedNs(servers[v].child.pid!, servers[v].child.pid!)].map((n, k) => ((n - cpu0[j][k]) / 1000 / (calls + 20)).toFixed(0)));
    const each = (f: (v: string, j: number) => string) => labels.map((v, j) => `${v} ${f(v, j)}`).join(', ');
    console.log(
      `round ${round + 1} (load average ${load0.toFixed(1)} → ${os.loadavg()[0].toFixed(1)}), p50 of ${calls}: load_skills vs invoke('load') ${each((v) => `${signed(p50(`${v} load`) - p50('direct'))} ms`)} (goal +2); ` +
        `resources/read vs fs.readFile ${each((v) => `${signed(p50(`${v} read`) - p50('fs'))} ms`)} (goal +1); server CPU per load + read ${each((_, j) => `${cpu[j][0]} us (main thread ${cpu[j][1]})`)}`,
    );
  }
  for (const v of labels) await servers[v].stop();
  await rt.flush();
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
