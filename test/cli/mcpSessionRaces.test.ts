// Issue 26 point 6: two writers on one session handle at the same instant. Two real `dist/cli.js mcp --http`
// replicas share a session store: a real redis-server (`--state-store`), or one state folder (two processes over one
// `--state-dir`, as replicas on a shared volume). Each round a client starts a session with one load, then sends
// four `load_skills` (mode add) on that handle at once, two to each replica. Every one of the five skills must be in
// the stored session afterwards: with last-write-wins saves, calls that read the same state lose each other's load.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { createNodeHost } from '../../src/core/host/nodeHost';
import { handleKey, type SessionStateStore } from '../../src/core/runtime/sessionStateStore';
import { folderStateStore } from '../../src/core/runtime/folderStateStore';
import { redisStateStore } from '../../src/core/runtime/redisStateStore';
import { writeSkill } from '../core/runtime/runtimeSupport';
import { modernPost, serverArgs, startHttpProcess, startReplicas, type Json, replicaSuite } from './mcpSupport';

const SESSION_META = 'io.github.agent-skills/session';
/** The server's cap on loaded skills is 5: the first load and four concurrent ones fill it exactly. */
const CONCURRENT = ['beta', 'gamma', 'delta', 'epsilon'];
const ROUNDS = 12;

async function call(url: URL, id: number, name: string, args: Json): Promise<Json> {
  const r = await modernPost(url, id, 'tools/call', { name, arguments: args });
  assert.equal(r.status, 200, JSON.stringify(r.json));
  assert.ok(r.json?.result, `no result: ${JSON.stringify(r.json)}`);
  return r.json.result;
}

describe('MCP 2026-07-28: concurrent writes to one session handle over two replicas', function () {
  this.timeout(240_000);
  const fx = replicaSuite('mcp-races-', (skills: string) => {
    for (const n of ['delta', 'epsilon']) writeSkill(skills, n);
  });

  /** Runs the rounds against replicas a and b; `store` reads what they saved. */
  async function race(urls: URL[], store: SessionStateStore): Promise<{ generations: number[] }> {
    const generations: number[] = [];
    let id = 1;
    for (let round = 0; round < ROUNDS; round++) {
      const first = await call(urls[round % 2], id++, 'load_skills', { names: ['alpha'], mode: 'add' });
      const handle = first._meta?.[SESSION_META] as string;
      assert.match(handle, /^ash_/);
      const answers = await Promise.all(CONCURRENT.map((n, i) => call(urls[i % 2], id++, 'load_skills', { names: [n], mode: 'add', session: handle })));
      for (const [i, a] of answers.entries()) assert.equal(a.isError, false, `round ${round}, load of ${CONCURRENT[i]}: ${JSON.stringify(a).slice(0, 600)}`);
      const saved = await store.load(handleKey(handle));
      assert.ok(saved, `round ${round}: the session is in the ${store.name}`);
      assert.deepEqual(saved.state.active_skills.map((s) => s.name).sort(), ['alpha', ...CONCURRENT].sort(), `round ${round}: every concurrent load is in the stored session`);
      // One save per call that changed it, none lost: the first load made generation 1, each of the four one more.
      assert.equal(saved.generation, 1 + CONCURRENT.length, `round ${round}: generation`);
      assert.equal(saved.audit.filter((e) => e.action === 'load' && e.outcome === 'ok').length, 1 + CONCURRENT.length, `round ${round}: the trail has each load once`);
      generations.push(saved.generation);
    }
    return { generations };
  }

  it('Redis store: every one of four concurrent loads on one handle is kept, in every round', async () => {
    const redis = await fx.startRedis();
    const skills = fx.skills;
    const urls = (await startReplicas(skills, fx.dir, redis.url, fx.stops)).map((r) => r.url);
    const store = redisStateStore(redis.url);
    fx.stops.push(() => store.close());
    await race(urls, store);
    console.log(`      ${ROUNDS} rounds x ${CONCURRENT.length} concurrent loads over two replicas sharing Redis: 0 lost`);
  });

  it('state folder store: two processes over one state folder keep every one of four concurrent loads', async () => {
    const skills = fx.skills;
    const state = path.join(fx.dir, 'shared-state');
    const urls: URL[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await startHttpProcess(serverArgs(skills, state, ['--http', '127.0.0.1:0']));
      fx.stops.push(r.stop);
      urls.push(r.url);
    }
    const store = folderStateStore(state, createNodeHost());
    await race(urls, store);
    console.log(`      ${ROUNDS} rounds x ${CONCURRENT.length} concurrent loads over two processes sharing one state folder: 0 lost`);
  });
});
