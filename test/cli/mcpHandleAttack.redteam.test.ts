// Red team (issue 22, sixth pass): the 2026-07-28 session handle (SEP-2567) is a tool argument, so a model or
// client can send anything there. Through the SDK engine (the default) and our encoder (AGENT_SKILLS_MCP_MODERN_SERVER=ours): a
// path, a handle-shaped path, a huge string, a number and a handle another state folder gave are refused naming
// the fix, never echoed whole, and nothing is written outside the state folder's handles/ (files named by digest).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from '../support/tempDir';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { writeSkill } from '../core/runtime/runtimeSupport';
import { rawStdio, serverArgs, type Json } from './mcpSupport';
import { SESSION_META } from '../../src/cli/mcp/handleSessions';

describe('MCP red team: hostile session handles on 2026-07-28', function () {
  this.timeout(120_000);
  let tmp: { dir: string; cleanup: () => void };
  before(function () {
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });
  beforeEach(() => (tmp = makeTempDir('mcp-handle-attack-')));
  afterEach(() => tmp.cleanup());

  for (const engine of ['ours', 'sdk'] as const) {
    it(`${engine === 'sdk' ? 'the SDK engine' : 'our encoder'}: paths, a huge string, a number and another folder's handle are refused; only digest-named files are written`, async () => {
      const root = path.join(tmp.dir, 'skills');
      writeSkill(root, 'pdf');
      const env: Record<string, string> = { AGENT_SKILLS_MCP_MODERN_SERVER: engine === 'sdk' ? '' : 'ours' };
      const [stateA, stateB] = [path.join(tmp.dir, 'state-a'), path.join(tmp.dir, 'state-b')];
      const a = rawStdio(serverArgs(root, stateA), env);
      const b = rawStdio(serverArgs(root, stateB), env);
      try {
        const load = (s: typeof a, session?: unknown) => s.request('tools/call', { name: 'load_skills', arguments: { names: ['pdf'], ...(session === undefined ? {} : { session: session as Json }) } });
        const fromB = await load(b);
        const handleB = (fromB.result as { _meta?: Record<string, unknown> } | undefined)?._meta?.[SESSION_META];
        assert.equal(typeof handleB, 'string', JSON.stringify(fromB).slice(0, 500));
        const planted = path.join(tmp.dir, 'planted');
        const hostile: unknown[] = [`../../${path.basename(tmp.dir)}/planted`, planted, `ash_${'../'.repeat(14)}x`, 'x'.repeat(1_000_000), 42, { $ref: '#' }, handleB];
        for (const h of hostile) {
          const r = await load(a, h);
          const text = JSON.stringify(r);
          const refused = r.error !== undefined || (r.result as { isError?: boolean } | undefined)?.isError === true;
          assert.ok(refused, `session ${String(h).slice(0, 40)} was accepted: ${text.slice(0, 300)}`);
          assert.match(text, /is not a session of this server/, text.slice(0, 300));
          assert.ok(text.length < 4000, `the refusal of a ${String(h).length}-character handle is ${text.length} characters: the handle is echoed`);
        }
        assert.ok(!fs.existsSync(planted), 'a file was written where a handle pointed');
        const handles = path.join(stateA, 'handles');
        const names = fs.existsSync(handles) ? fs.readdirSync(handles) : [];
        for (const n of names) assert.match(n, /^(?:[0-9a-f]{64}(?:\.b)?\.json|used|signing\.key|\.lock-owner-\d+|\.spare\.tmp-\d+-[0-9a-z]+)$/, `an unexpected name in ${handles}: ${n}`);
        // The server goes on serving: a call without a handle starts a session.
        const fresh = await load(a);
        assert.equal((fresh.result as { isError?: boolean } | undefined)?.isError, false, JSON.stringify(fresh).slice(0, 300));
      } finally {
        await a.stop();
        await b.stop();
      }
    });
  }
});
