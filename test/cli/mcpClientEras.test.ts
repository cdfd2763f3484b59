// Our MCP skills client (`--mcp-server`, `agentSkills.mcpServers`) in both eras of the protocol, as the 2026-07-28
// versioning page says a dual-era client does: it asks `server/discover` first and stays modern when the server
// answers it (our own `agent-skills mcp`, over stdio and HTTP, and a hand-written modern fixture), and falls back to
// `initialize` when it does not (a legacy fixture). It follows `skills/list` and `resources/list` pages, and a
// hostile server's endless pages or cursor loop stop at a bound with a problem naming the server and the bound.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { McpSkillsClient, type McpTimeouts } from '../../src/core/mcp/mcpSkillsClient';
import type { McpLaunch } from '../../src/core/mcp/mcpLaunch';
import { makeTempDir } from '../support/tempDir';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { REPO, serverArgs, startHttpProcess, writeFixtureSkills } from './mcpSupport';
import { writeSkill } from '../core/runtime/runtimeSupport';

const HOSTILE = path.join(REPO, 'test/fixtures/mcp/hostileSkillsServer.mjs');

describe('MCP skills client in both protocol eras, following pages within bounds', function () {
  // Generous: under load 25 our server alone takes 17 to 24 s to start over 153 skills (DEFAULT_MCP_TIMEOUTS).
  this.timeout(300_000);
  let tmp: { dir: string; cleanup: () => void };
  const clients: McpSkillsClient[] = [];
  const stops: (() => Promise<void>)[] = [];
  before(function () {
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });
  beforeEach(() => {
    tmp = makeTempDir('mcp-eras-');
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
    for (const s of stops.splice(0)) await s();
    tmp.cleanup();
  });
  const connect = async (config: McpLaunch, timeouts: Partial<McpTimeouts> = {}) => {
    const c = new McpSkillsClient(config, path.join(tmp.dir, 'cache'), undefined, timeouts);
    clients.push(c);
    await c.connect();
    return c;
  };
  const http = async (args: string[]) => {
    const p = await startHttpProcess(args);
    stops.push(p.stop);
    return p.url.href;
  };

  it('speaks 2026-07-28 to our server over stdio and HTTP, following every page of skills/list (153 skills) and resources/list (1,200+ files)', async () => {
    const served = path.join(tmp.dir, 'served');
    writeFixtureSkills(served);
    // 150 skills of 8 files: 1,200+ resources, over one page of resources/list (1,000) as of skills/list (100).
    const files = (i: number) => Object.fromEntries([['notes.md', `n${i}`], ...Array.from({ length: 6 }, (_, k) => [`refs/r${k}.md`, `r${k}`])]);
    for (let i = 0; i < 150; i++) writeSkill(served, `many-${String(i).padStart(3, '0')}`, { body: `Skill ${i}.`, files: files(i) });
    const viaStdio = await connect({ name: 'ours', command: process.execPath, args: serverArgs(served, path.join(tmp.dir, 's1')) });
    const viaHttp = await connect({ name: 'web', url: await http(serverArgs(served, path.join(tmp.dir, 's2'), ['--http', '127.0.0.1:0'])) });
    for (const c of [viaStdio, viaHttp]) {
      assert.equal(c.era, 'modern', `${c.config.name}: ${JSON.stringify(c.state)}`);
      assert.deepEqual(c.state, { state: 'up', skills: 153 }, c.config.name);
      assert.deepEqual(c.problems, []);
      const sizes = (c as unknown as { sizes: Map<string, number> }).sizes;
      assert.ok(sizes.size > 1200, `sizes of every page of resources/list (${sizes.size})`);
      // The last skill is on the second page of skills/list: fetched and verified (sizes from resources/list pages).
      const dir = await c.fetchSkill('many-149');
      assert.match(fs.readFileSync(path.join(dir, 'SKILL.md'), 'utf8'), /Skill 149\./);
      assert.equal(fs.readFileSync(path.join(dir, 'notes.md'), 'utf8'), 'n149');
    }
  });

  it('falls back to initialize for a server that does not answer server/discover (legacy), on stdio and HTTP', async () => {
    const legacyStdio = await connect({ name: 'old', command: process.execPath, args: [HOSTILE, 'honest'] });
    const legacyHttp = await connect({ name: 'oldweb', url: await http([HOSTILE, 'honest', '--http']) });
    const modernFixture = await connect({ name: 'newfix', command: process.execPath, args: [HOSTILE, 'honest', '--modern'] });
    for (const [c, era] of [[legacyStdio, 'legacy'], [legacyHttp, 'legacy'], [modernFixture, 'modern']] as const) {
      assert.equal(c.era, era, `${c.config.name}: ${JSON.stringify(c.state)}`);
      assert.deepEqual(c.state, { state: 'up', skills: 1 }, c.config.name);
      assert.match(fs.readFileSync(path.join(await c.fetchSkill('gated'), 'SKILL.md'), 'utf8'), /Follow these steps/);
    }
  });

  // A 2026-07-28 server slower than the probe (still loading): the fixture holds its answer to server/discover until
  // the next request, so the probe always times out first, at any load. On stdio that means legacy (2026-07-28
  // versioning), so initialize follows on the same process, and the probe's answer comes late.
  describe('a modern stdio server that answers the probe late', () => {
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    const slow = async (name: string, extra: string[]) => {
      const pids = path.join(tmp.dir, `${name}.pids`);
      const c = await connect({ name, command: process.execPath, args: [HOSTILE, 'honest', '--modern', '--pids', pids, ...extra] }, { startMs: 500 });
      return { c, pids: () => fs.readFileSync(pids, 'utf8').trim().split('\n').map(Number) };
    };

    it('dual-era: answers initialize after the late probe answer, so it is up in 2025-11-25 on its one process', async () => {
      const { c, pids } = await slow('late', ['--loading', '600000']);
      assert.deepEqual(c.state, { state: 'up', skills: 1 }, JSON.stringify(c.state));
      assert.equal(c.era, 'legacy');
      assert.match(fs.readFileSync(path.join(await c.fetchSkill('gated'), 'SKILL.md'), 'utf8'), /Follow these steps/);
      assert.equal(pids().length, 1, 'one process: the fallback went on the same one');
      await c.close();
      assert.deepEqual(pids().filter(alive), [], 'no server process outlives close');
    });

    it('2026-07-28 only: refuses initialize; its late answer proved it modern, so one more start held to 2026-07-28 is up', async () => {
      // The second process is still loading too, for 1.5 s: the probe of a server known to be modern waits for it.
      const { c, pids } = await slow('lateonly', ['--modern-only', '--loading', '1500']);
      assert.deepEqual(c.state, { state: 'up', skills: 1 }, JSON.stringify(c.state));
      assert.equal(c.era, 'modern');
      assert.match(fs.readFileSync(path.join(await c.fetchSkill('gated'), 'SKILL.md'), 'utf8'), /Follow these steps/);
      const started = pids();
      assert.equal(started.length, 2, `two starts (${started.join(', ')})`);
      assert.equal(alive(started[0]), false, 'the first process was ended before the second start');
      await c.close();
      assert.deepEqual(pids().filter(alive), [], 'no server process outlives close');
    });
  });

  for (const era of ['legacy', 'modern'] as const) {
    it(`${era}: endless pages stop at 100 pages and a cursor loop at its first repeat, keeping the first page's skill`, async () => {
      const extra = era === 'modern' ? ['--modern'] : [];
      const count = path.join(tmp.dir, `count-${era}`);
      const endless = await connect({ name: 'endless', command: process.execPath, args: [HOSTILE, 'endless-pages', '--count', count, ...extra] });
      assert.equal(endless.era, era);
      assert.deepEqual(endless.state, { state: 'up', skills: 1 });
      assert.ok(endless.problems.some((p) => /'endless': skills\/list goes on past 100 pages/.test(p.message)), JSON.stringify(endless.problems));
      assert.ok(endless.problems.some((p) => /'endless': resources\/list goes on past 100 pages/.test(p.message)), JSON.stringify(endless.problems));
      const asked = Number(fs.readFileSync(count, 'utf8'));
      assert.ok(asked <= 205, `the client stopped asking (${asked} requests for two lists of 100 pages and the handshake)`);
      const loop = await connect({ name: 'loop', command: process.execPath, args: [HOSTILE, 'cursor-loop', ...extra] });
      assert.deepEqual(loop.state, { state: 'up', skills: 1 });
      assert.ok(loop.problems.some((p) => /'loop': skills\/list gave a cursor it had given before.*a loop/.test(p.message)), JSON.stringify(loop.problems));
      assert.match(fs.readFileSync(path.join(await loop.fetchSkill('gated'), 'SKILL.md'), 'utf8'), /Follow these steps/);
    });
  }
});
