// Wall time of 2026-07-28 requests over stdio, the SDK's own Server (the default) against our encoder (kept for this
// comparison: AGENT_SKILLS_MCP_MODERN_SERVER=ours), two `agent-skills mcp` processes of the same dist/cli.js side by side,
// interleaved request by request with the baselines of `npm run bench` (core invoke('load'), fs.readFile), so a
// change of load on the machine falls on both alike. Prints per round the p50 over the baseline of each and the
// load average. Run after `npm run build`: node --import tsx test/bench/sdkModernWire.ts [rounds] [calls per round]
import { promises as fsp } from 'node:fs';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadBundled, summarize } from './benchUtil';
import { rawStdio, serverArgs, writeFixtureSkills } from '../cli/mcpSupport';

type CatalogMod = typeof import('../../src/core/catalog');
type RuntimeMod = typeof import('../../src/core/runtime');
const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
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
  const servers = {
    ours: rawStdio(serverArgs(skills, path.join(dir, 'ours-state')), { AGENT_SKILLS_MCP_MODERN_SERVER: 'ours' }),
    sdk: rawStdio(serverArgs(skills, path.join(dir, 'sdk-state')), { AGENT_SKILLS_MCP_MODERN_SERVER: '' }),
  };
  const handles: Record<string, string | undefined> = {};
  const skillMd = path.join(skills, 'alpha', 'SKILL.md');
  const check = (r: Record<string, any>) => { // eslint-disable-line @typescript-eslint/no-explicit-any
    if (!r.result || r.result.isError) throw new Error(JSON.stringify(r).slice(0, 300));
    return r;
  };
  for (let round = 0; round < rounds; round++) {
    const t: Record<string, number[]> = { direct: [], fs: [], 'ours load': [], 'sdk load': [], 'ours read': [], 'sdk read': [] };
    const load0 = os.loadavg()[0];
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
      for (const v of i % 2 ? (['ours', 'sdk'] as const) : (['sdk', 'ours'] as const)) {
        t0 = process.hrtime.bigint();
        const r = check(await servers[v].request('tools/call', { name: 'load_skills', arguments: { names: ['alpha'], ...(handles[v] ? { session: handles[v] } : {}) } }));
        sample[`${v} load`] = ms(t0);
        handles[v] ??= r.result._meta['io.github.agent-skills/session'];
        t0 = process.hrtime.bigint();
        const rr = check(await servers[v].request('resources/read', { uri: 'skill://alpha/SKILL.md' }));
        sample[`${v} read`] = ms(t0);
        if ((rr.result._meta['io.modelcontextprotocol/serverInfo'].title === undefined) !== (v === 'ours')) throw new Error(`the ${v} server did not answer through ${v === 'sdk' ? 'the SDK' : 'our encoder'} (serverInfo's title tells them apart)`);
      }
      if (i >= 20) for (const [k, v] of Object.entries(sample)) t[k].push(v);
    }
    const p50 = (k: string) => summarize(t[k]).p50;
    console.log(
      `round ${round + 1} (load average ${load0.toFixed(1)} → ${os.loadavg()[0].toFixed(1)}), p50 of ${calls}: load_skills vs invoke('load') ours ${signed(p50('ours load') - p50('direct'))} ms, SDK ${signed(p50('sdk load') - p50('direct'))} ms (goal +2); ` +
        `resources/read vs fs.readFile ours ${signed(p50('ours read') - p50('fs'))} ms, SDK ${signed(p50('sdk read') - p50('fs'))} ms (goal +1)`,
    );
  }
  await servers.ours.stop();
  await servers.sdk.stop();
  await rt.flush();
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
