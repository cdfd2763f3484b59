// What a 2026-07-28 tool call does when another writer saves its session first (issue 26 point 6): two real MCP
// backends (two "replicas") over one state folder, answering through the real modern dispatcher. Replica A's store
// lets replica B run a whole real load_skills call on the same handle right before A saves, so B's save lands
// between A's read and A's write, every time, deterministically. A must apply its load again to B's newer state;
// when B wins every attempt, A gives up after MAX_SAVE_ATTEMPTS with the tool error session_conflict; and a load that
// no longer fits the cap on the newer state is refused, never stored over the cap.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { createNodeHost } from '../../src/core/host/nodeHost';
import { handleKey, type SessionStateStore } from '../../src/core/runtime/sessionStateStore';
import { folderStateStore } from '../../src/core/runtime/folderStateStore';
import { createMcpBackend, type McpBackend } from '../../src/cli/mcp/mcpBackend';
import { mcpHandlers } from '../../src/cli/mcp/mcpHandlers';
import { dispatchModern, modernServer, type ModernServer } from '../../src/cli/mcp/modernDispatch';
import { MAX_SAVE_ATTEMPTS, SESSION_META } from '../../src/cli/mcp/handleSessions';
import { makeTempDir } from '../support/tempDir';
import { writeSkill } from '../core/runtime/runtimeSupport';
import { MODERN_META, writeFixtureSkills, type Json } from './mcpSupport';

/** A real store whose saves first let `rival` run (while `rivalRuns` > 0); counts the saves it was asked for. */
function racedStore(inner: SessionStateStore, rival: () => Promise<void>): SessionStateStore & { rivalRuns: number; saves: number } {
  const raced = {
    name: inner.name,
    rivalRuns: 0,
    saves: 0,
    load: (key: string) => inner.load(key),
    async save(key: string, session: Parameters<SessionStateStore['save']>[1], expected: number) {
      raced.saves++;
      if (raced.rivalRuns > 0) {
        raced.rivalRuns--;
        await rival();
      }
      return inner.save(key, session, expected);
    },
    remove: (key: string) => inner.remove(key),
    signingKey: () => inner.signingKey(),
    claimOnce: (key: string, ttlMs: number) => inner.claimOnce(key, ttlMs),
    close: () => inner.close(),
  };
  return raced;
}

describe('MCP 2026-07-28: a call whose session another replica saved first', function () {
  this.timeout(60_000);
  let tmp: { dir: string; cleanup: () => void };
  let a: McpBackend;
  let b: McpBackend;
  let serveA: ModernServer;
  let serveB: ModernServer;
  let storeA: ReturnType<typeof racedStore>;
  /** What replica B does right before each of A's saves (set per test). */
  let rivalCall: () => Promise<Json>;
  let id = 1;
  const tool = async (s: ModernServer, name: string, args: Json): Promise<Json> => {
    const answer = await dispatchModern(s, { jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name, arguments: args, _meta: MODERN_META } }, undefined);
    assert.ok(answer.body?.result, JSON.stringify(answer.body));
    return answer.body.result as Json;
  };
  const names = async (handle: string) => (await folderStateStore(path.join(tmp.dir, 'state'), createNodeHost()).load(handleKey(handle)))?.state.active_skills.map((s) => s.name);

  beforeEach(async () => {
    tmp = makeTempDir('handle-races-');
    const skills = path.join(tmp.dir, 'skills');
    writeFixtureSkills(skills);
    for (const n of ['delta', 'epsilon', 'zeta']) writeSkill(skills, n);
    const state = path.join(tmp.dir, 'state');
    const common = { roots: [{ path: skills, scope: 'workspace' }], surface: 'standard' as const, allowScripts: false, readOnly: false, watch: false };
    storeA = racedStore(folderStateStore(state, createNodeHost()), async () => {
      const r = await rivalCall();
      assert.equal(r.isError, false, `the rival's call: ${JSON.stringify(r).slice(0, 400)}`);
    });
    a = await createMcpBackend({ ...common, stateDir: path.join(tmp.dir, 'a'), stateStore: storeA });
    b = await createMcpBackend({ ...common, stateDir: path.join(tmp.dir, 'b'), stateStore: folderStateStore(state, createNodeHost()) });
    serveA = modernServer(a, mcpHandlers(a));
    serveB = modernServer(b, mcpHandlers(b));
  });
  afterEach(async () => {
    await serveA?.close();
    await serveB?.close();
    await a?.close();
    await b?.close();
    tmp.cleanup();
  });

  const start = async (skills: string[]) => {
    const first = await tool(serveB, 'load_skills', { names: skills, mode: 'add' });
    return first._meta[SESSION_META] as string;
  };

  it("applies its load again to the state the other replica saved: both loads are kept, each once in the trail", async () => {
    const h = await start(['alpha']);
    rivalCall = () => tool(serveB, 'load_skills', { names: ['gamma'], mode: 'add', session: h });
    storeA.rivalRuns = 1;
    const r = await tool(serveA, 'load_skills', { names: ['beta'], mode: 'add', session: h });
    assert.equal(r.isError, false, JSON.stringify(r));
    assert.equal(storeA.saves, 2, 'the first save lost the race, the second was saved');
    assert.deepEqual(await names(h), ['alpha', 'gamma', 'beta'], "B's load saved first, A's applied after it");
    const saved = await folderStateStore(path.join(tmp.dir, 'state'), createNodeHost()).load(handleKey(h));
    assert.equal(saved?.generation, 3);
    assert.deepEqual(saved?.audit.filter((e) => e.action === 'load').map((e) => e.skill), ['alpha', 'gamma', 'beta']);
  });

  it(`gives up after ${MAX_SAVE_ATTEMPTS} lost races with the tool error session_conflict, naming the session and what to do`, async () => {
    const h = await start(['alpha']);
    rivalCall = () => tool(serveB, 'load_skills', { names: ['gamma'], mode: 'add', session: h });
    storeA.rivalRuns = Number.POSITIVE_INFINITY;
    const r = await tool(serveA, 'load_skills', { names: ['beta'], mode: 'add', session: h });
    assert.equal(r.isError, true, JSON.stringify(r));
    const text = r.content[0].text as string;
    assert.match(text, /^Error \(session_conflict\): Session 'ash_[A-Za-z0-9_-]{8}…'/);
    assert.match(text, new RegExp(`saved it first ${MAX_SAVE_ATTEMPTS} times`));
    assert.match(text, /Call again with the same "session"/);
    assert.equal(storeA.saves, MAX_SAVE_ATTEMPTS, 'bounded: no save after the last attempt');
    assert.deepEqual(await names(h), ['alpha', 'gamma'], "A's load was not saved; B's were");
  });

  it('refuses a load that no longer fits the cap on the newer state, and stores nothing over the cap', async () => {
    const h = await start(['alpha', 'beta', 'gamma', 'delta']);
    rivalCall = () => tool(serveB, 'load_skills', { names: ['zeta'], mode: 'add', session: h });
    storeA.rivalRuns = 1;
    const r = await tool(serveA, 'load_skills', { names: ['epsilon'], mode: 'add', session: h });
    assert.equal(r.isError, true, JSON.stringify(r));
    assert.match(r.content[0].text, /session_conflict.*no longer applies.*at most 5 may be loaded/s);
    assert.deepEqual(await names(h), ['alpha', 'beta', 'gamma', 'delta', 'zeta']);
  });
});
