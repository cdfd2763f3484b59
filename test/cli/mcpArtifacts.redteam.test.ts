// Red team (issue 22, third pass): one team server over HTTP, two clients. Saved artifacts were one store for the
// whole server: before the fix, Mallory's `read_skill_file artifact://report.txt` returned the report Alice's run
// had saved (her script's output), and a version Mallory saved under the same name became the latest one Alice's
// next read or `artifact://` input got. Now each MCP session (and each 2026-07-28 state handle) has its own.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { writeSkill } from '../core/runtime/runtimeSupport';
import { makeTempDir } from '../support/tempDir';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { httpClient, modernPost, serverArgs, startHttpProcess, toolText, type Json } from './mcpSupport';

describe('agent-skills mcp --http: one client\'s saved artifacts are not another\'s (red team)', function () {
  this.timeout(90_000);
  const tag = randomBytes(4).toString('hex');
  let tmp: { dir: string; cleanup: () => void };
  let server: Awaited<ReturnType<typeof startHttpProcess>> | undefined;
  const clients: Client[] = [];

  before(async function () {
    this.timeout(BUILD_TIMEOUT_MS);
    await ensureBuilt();
    tmp = makeTempDir('mcp-artifacts-');
    const skills = path.join(tmp.dir, 'skills');
    writeSkill(skills, 'report', { body: 'Writes a report.', files: { 'scripts/report.sh': 'printf "%s\\n" "$1" > "$OUTPUT_DIR/report.txt"; cat inputs/report.txt 2>/dev/null || true\n' } });
    // No sandbox: what is attacked is the server's artifact store, reached through the tools, not the script's view.
    server = await startHttpProcess(serverArgs(skills, path.join(tmp.dir, 'state'), ['--http', '127.0.0.1:0', '--allow-scripts', '--sandbox', 'off']));
  });
  after(async () => {
    for (const c of clients.splice(0)) await c.close().catch(() => undefined);
    await server?.stop();
    tmp?.cleanup();
  });
  const connect = async () => {
    const { client } = await httpClient(server!.url);
    clients.push(client);
    await client.callTool({ name: 'load_skills', arguments: { names: ['report'] } });
    return client;
  };
  const save = async (client: Client, text: string, inputs: { from: string }[] = []) => {
    const r = await client.callTool({ name: 'run_skill_script', arguments: { skill: 'report', script: 'scripts/report.sh', args: [text], inputs, outputs: { globs: ['out/*'], save: true } } });
    return toolText(r);
  };
  const read = async (client: Client) => toolText(await client.callTool({ name: 'read_skill_file', arguments: { path: 'artifact://report.txt' } }));

  it('2025-11-25 sessions: another session can neither read, stage nor replace an artifact of Alice\'s', async () => {
    const alice = await connect();
    const mallory = await connect();
    assert.match(await save(alice, `ALICE-${tag}`), /"ref":"artifact:\/\/report\.txt@1"/);
    const stolen = await read(mallory);
    assert.doesNotMatch(stolen, new RegExp(`ALICE-${tag}`), `Mallory read Alice's artifact: ${stolen.slice(0, 300)}`);
    assert.match(stolen, /Error \(not_found\): No artifact 'report\.txt'/);
    const staged = await save(mallory, 'x', [{ from: 'artifact://report.txt' }]);
    assert.doesNotMatch(staged, new RegExp(`ALICE-${tag}`), `Mallory staged Alice's artifact: ${staged.slice(0, 300)}`);
    assert.match(staged, /inputs: "artifact:\/\/report\.txt" is not a stored artifact/);
    // Mallory saves under the same name; Alice's latest stays hers.
    assert.match(await save(mallory, `MALLORY-${tag}`), /"ref":"artifact:\/\/report\.txt@1"/);
    const own = await read(alice);
    assert.match(own, new RegExp(`ALICE-${tag}`), own.slice(0, 300));
    assert.doesNotMatch(own, new RegExp(`MALLORY-${tag}`));
  });

  it('2026-07-28 state handles: a handle sees only the artifacts saved under it', async () => {
    let id = 100;
    const call = async (name: string, args: Json, session?: string) => {
      const r = await modernPost(server!.url, id++, 'tools/call', { name, arguments: { ...args, ...(session ? { session } : {}) } });
      const result = r.json?.result as Json | undefined;
      assert.ok(result, JSON.stringify(r.json).slice(0, 400));
      return { text: (result.content as { text: string }[]).map((c) => c.text).join('\n'), handle: (result._meta as Json | undefined)?.['io.github.agent-skills/session'] as string | undefined };
    };
    const a = await call('load_skills', { names: ['report'] });
    const m = await call('load_skills', { names: ['report'] });
    assert.ok(a.handle && m.handle && a.handle !== m.handle, 'two handles');
    const saved = await call('run_skill_script', { skill: 'report', script: 'scripts/report.sh', args: [`HANDLE-ALICE-${tag}`], outputs: { globs: ['out/*'], save: true } }, a.handle);
    assert.match(saved.text, /artifact:\/\/report\.txt@\d+/, saved.text.slice(0, 400));
    const stolen = await call('read_skill_file', { path: 'artifact://report.txt' }, m.handle);
    assert.doesNotMatch(stolen.text, new RegExp(`HANDLE-ALICE-${tag}`), stolen.text.slice(0, 300));
    assert.match(stolen.text, /No artifact 'report\.txt'/);
    const own = await call('read_skill_file', { path: 'artifact://report.txt' }, a.handle);
    assert.match(own.text, new RegExp(`HANDLE-ALICE-${tag}`), own.text.slice(0, 300));
  });
});
