// Red team (seventh round, attack23): the SDK 2.4.0 Server, now the default for 2026-07-28, against a hostile client
// over stdio. What held (no change was needed): hostile `skill://` URIs are refused with -32602 naming the problem
// (dot segments plain or percent-encoded, an encoded separator, an empty segment, a 1 MB name) and nothing outside the
// skill is read; `_meta`, its client capabilities and a cursor nested 100,000 deep get an answer, not a crash; a batch
// and an object id are not answered and the server goes on; find_skills answers 20,000 characters of regex-like text
// or of a character NFKC makes 18 (U+FDFA), and refuses 20,001 as invalid input. Both engines (our encoder and the SDK).
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { makeTempDir } from '../support/tempDir';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { MODERN_META, rawStdio, serverArgs, writeFixtureSkills } from './mcpSupport';

type Answer = { error?: { code: number; message: string }; result?: Record<string, unknown> };

describe('agent-skills mcp 2026-07-28: hostile URIs, nesting, batches and queries (red team)', function () {
  this.timeout(240_000);
  let tmp: { dir: string; cleanup: () => void };
  before(async function () {
    this.timeout(BUILD_TIMEOUT_MS);
    await ensureBuilt();
    tmp = makeTempDir('mcp-modern-hostile-');
    writeFixtureSkills(path.join(tmp.dir, 'skills'));
  });
  after(() => tmp?.cleanup());

  for (const engine of ['sdk', 'ours']) {
    it(`${engine}: refuses each hostile URI naming why, answers deep nesting, drops a batch and goes on, bounds find_skills`, async () => {
      const server = rawStdio(serverArgs(path.join(tmp.dir, 'skills'), path.join(tmp.dir, `state-${engine}`)), { AGENT_SKILLS_MCP_MODERN_SERVER: engine });
      const ask = (method: string, params: Record<string, unknown>) => server.request(method, params) as Promise<Answer>;
      let id = 1;
      /** A request written by hand (the test's own JSON.stringify would overflow on 100,000 levels). */
      const raw = (line: (n: number) => string): Promise<Answer> => {
        const n = id++;
        server.child.stdin!.write(`${line(n)}\n`);
        return server.answer(n, 120_000) as Promise<Answer>;
      };
      try {
        const refusals: [string, string, RegExp][] = [
          ['skills/get', 'skill://alpha/../beta/SKILL.md', /dot segment/],
          ['resources/directory/read', 'skill://alpha/%2e%2e', /dot segment/],
          ['resources/directory/read', 'skill://alpha/references/..', /dot segment/],
          ['resources/read', 'skill://alpha/references%2fguide.md', /decodes to a path separator/],
          ['resources/read', 'skill://alpha//etc/passwd', /empty segment/],
          ['resources/read', 'skill://alpha/references/../SKILL.md', /dot segment/],
          ['skills/get', `skill://${'a'.repeat(1_000_000)}/SKILL.md`, /longer than 4096 characters/],
        ];
        for (const [method, uri, why] of refusals) {
          const a = await ask(method, { uri });
          assert.equal(a.error?.code, -32602, `${method} ${uri.slice(0, 60)}: ${JSON.stringify(a).slice(0, 300)}`);
          assert.match(a.error!.message, why);
          assert.ok(a.error!.message.length < 4000, 'the refusal does not echo a 1 MB URI');
        }
        let deep = '1';
        for (let i = 0; i < 100_000; i++) deep = `{"a":${deep}}`;
        const meta = (caps: string) => `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":${caps},"io.modelcontextprotocol/clientInfo":{"name":"r","version":"1"},"x":${deep}}`;
        const tools = await raw((n) => `{"jsonrpc":"2.0","id":${n},"method":"tools/list","params":{"_meta":${meta('{}')}}}`);
        assert.ok(Array.isArray(tools.result?.tools), `deep _meta: ${JSON.stringify(tools).slice(0, 300)}`);
        const caps = await raw((n) => `{"jsonrpc":"2.0","id":${n},"method":"tools/list","params":{"_meta":${meta(deep)}}}`);
        assert.ok(Array.isArray(caps.result?.tools), `deep capabilities: ${JSON.stringify(caps).slice(0, 300)}`);
        const cursor = await raw((n) => `{"jsonrpc":"2.0","id":${n},"method":"resources/list","params":{"cursor":${deep},"_meta":${JSON.stringify(MODERN_META)}}}`);
        assert.equal(cursor.error?.code, -32602, `deep cursor: ${JSON.stringify(cursor).slice(0, 300)}`);
        // A batch and an object id: not answered (nothing to answer to), and the server goes on.
        server.child.stdin!.write(`${JSON.stringify([1, 2, 3].map((k) => ({ jsonrpc: '2.0', id: 9000 + k, method: 'tools/list', params: { _meta: MODERN_META } })))}\n`);
        server.child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id: { a: 1 }, method: 'tools/list', params: { _meta: MODERN_META } })}\n`);
        assert.ok(Array.isArray((await ask('tools/list', {})).result?.tools), 'the server stopped answering after a batch');
        const find = (query: string) => ask('tools/call', { name: 'find_skills', arguments: { query } });
        for (const query of ['(a+)+$ [^]*.*? \\1 '.repeat(1200).slice(0, 20_000), '\ufdfa'.repeat(20_000)]) {
          const a = await find(query);
          assert.notEqual(a.result?.isError, true, JSON.stringify(a).slice(0, 300));
          assert.match((a.result?.content as { text: string }[])[0].text, /No installed skill matches|No good match|available_skills/);
        }
        const over = await find('x'.repeat(20_001));
        assert.equal(over.result?.isError, true);
        assert.match((over.result?.content as { text: string }[])[0].text, /invalid_input.*query/s);
      } finally {
        await server.stop();
      }
    });
  }
});
