// Issue 26: over MCP, `run_skill_script` asks the user first (MCP elicitation) when the client declared it can be
// asked: on 2025-11-25 as an `elicitation/create` request during the call, on 2026-07-28 as an `input_required`
// result the client retries with the answer (multi round-trip requests). The real `dist/cli.js mcp --http`
// process, the SDK 2.x client with an elicitation handler (both revisions), and raw requests for hostile answers.
// A skill whose script writes a file named by its argument shows whether it ran (unsandboxed, so the file lands
// where the test looks).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { makeTempDir } from '../support/tempDir';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { writeSkill } from '../core/runtime/runtimeSupport';
import { MODERN, modernPost, postJson, serverArgs, startHttpProcess, startReplicas, waitFor, type Json } from './mcpSupport';
import { startRedis } from '../support/redisServer';

const SESSION_META = 'io.github.agent-skills/session';
type Answer = { action: string; content?: Record<string, unknown> };

/** An SDK 2.x client on `era` (over HTTP to `url`, or over stdio to a server started with `url` as its arguments), declaring form elicitation, whose user answers with `answer()` (each question recorded). */
async function askingClient(url: URL | string[], era: 'legacy' | 'modern', answer: () => Answer) {
  const client = new Client({ name: 'consent-test', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, ...(era === 'modern' ? { versionNegotiation: { mode: 'auto' as const } } : {}) });
  const asked: string[] = [];
  client.setRequestHandler('elicitation/create', async (req) => {
    asked.push(String((req.params as { message?: unknown }).message));
    return answer() as never;
  });
  await client.connect(url instanceof URL ? new StreamableHTTPClientTransport(url) : new StdioClientTransport({ command: process.execPath, args: url, stderr: 'ignore' }));
  assert.equal(client.getProtocolEra(), era === 'modern' ? 'modern' : 'legacy');
  let handle: string | undefined;
  /** A tool call in the client's session (on 2026-07-28 the handle of the first answer is passed back). */
  const call = async (name: string, args: Json) => {
    const r = (await client.callTool({ name, arguments: { ...args, ...(handle ? { session: handle } : {}) } })) as Json;
    handle ??= r._meta?.[SESSION_META];
    return r;
  };
  return { client, asked, call };
}

const text = (r: Json) => (r.content as { text?: string }[]).map((c) => c.text ?? '').join('\n');

describe('MCP: run_skill_script asks the user first over elicitation (both revisions)', function () {
  this.timeout(120_000);
  let tmp: { dir: string; cleanup: () => void };
  const stops: (() => Promise<void>)[] = [];
  const start = async (extra: string[] = []) => {
    const s = await startHttpProcess(serverArgs(path.join(tmp.dir, 'skills'), path.join(tmp.dir, 'state'), ['--http', '127.0.0.1:0', '--allow-scripts', '--sandbox', 'off', ...extra]));
    stops.push(s.stop);
    return s;
  };
  before(function () {
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });
  beforeEach(() => {
    tmp = makeTempDir('mcp-consent-');
    writeSkill(path.join(tmp.dir, 'skills'), 'writer', { body: 'Run scripts/write.sh with the file to write.', files: { 'scripts/write.sh': 'echo ran > "$1"\necho wrote "$1"\n' } });
  });
  afterEach(async () => {
    for (const s of stops.splice(0).reverse()) await s();
    tmp.cleanup();
  });

  for (const era of ['legacy', 'modern'] as const) {
    it(`${era === 'legacy' ? '2025-11-25' : MODERN}: accept runs the script, decline and cancel run nothing, and the question says what runs and unsandboxed`, async () => {
      const s = await start();
      let answer: Answer = { action: 'accept', content: { run: true } };
      const c = await askingClient(s.url, era, () => answer);
      try {
        assert.equal((await c.call('load_skills', { names: ['writer'] })).isError, false);
        assert.equal(c.asked.length, 0, 'a load asks nothing');
        const ran = path.join(tmp.dir, 'ran.txt');
        const r = await c.call('run_skill_script', { script: 'scripts/write.sh', args: [ran] });
        assert.equal(r.isError, false, text(r));
        assert.equal(fs.readFileSync(ran, 'utf8'), 'ran\n');
        assert.equal(c.asked.length, 1, 'asked once before the run');
        assert.match(c.asked[0], /Run the script "scripts\/write\.sh" of skill "writer"\?/);
        assert.match(c.asked[0], new RegExp(`Arguments: ${JSON.stringify(ran).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));
        assert.match(c.asked[0], /Sandboxed: NO\. Not sandboxed/);
        assert.match(c.asked[0], /Network: yes/);
        assert.match(c.asked[0], /Can write: whatever the server's user/);

        for (const [action, why] of [['decline', /declined/], ['cancel', /dismissed/]] as const) {
          answer = { action };
          const file = path.join(tmp.dir, `${action}.txt`);
          const no = await c.call('run_skill_script', { script: 'scripts/write.sh', args: [file] });
          assert.equal(no.isError, true, text(no));
          assert.match(text(no), why);
          assert.ok(!fs.existsSync(file), `${action}: the script did not run`);
        }
        // Accepted without ticking "Run": nothing runs either.
        answer = { action: 'accept', content: { run: false } };
        const unticked = path.join(tmp.dir, 'unticked.txt');
        const u = await c.call('run_skill_script', { script: 'scripts/write.sh', args: [unticked] });
        assert.match(text(u), /without ticking "Run"/);
        assert.ok(!fs.existsSync(unticked));
      } finally {
        await c.client.close();
      }
    });

    it(`${era === 'legacy' ? '2025-11-25' : MODERN}: a malformed answer from the client is refused with an error naming what was wrong; nothing runs`, async () => {
      const s = await start();
      let answer: Answer = { action: 'accept', content: { run: 'yes' } };
      const c = await askingClient(s.url, era, () => answer);
      try {
        await c.call('load_skills', { names: ['writer'] });
        for (const bad of [{ action: 'accept', content: { run: 'yes' } }, { action: 'accept' }, { action: 'maybe' }] as Answer[]) {
          answer = bad;
          const file = path.join(tmp.dir, 'bad.txt');
          await assert.rejects(c.call('run_skill_script', { script: 'scripts/write.sh', args: [file] }), (e: Error) => {
            assert.match(e.message, /confirmation|elicit|action|content/i, e.message);
            return true;
          });
          assert.ok(!fs.existsSync(file), `${JSON.stringify(bad)}: nothing ran`);
        }
      } finally {
        await c.client.close();
      }
    });
  }

  for (const era of ['legacy', 'modern'] as const) {
    it(`${era === 'legacy' ? '2025-11-25' : MODERN}: a run the runtime refuses anyway (missing script, a path outside the skill, a folder, a bad env name, no such loaded skill) returns its error without a question`, async () => {
      const s = await start();
      const c = await askingClient(s.url, era, () => ({ action: 'accept', content: { run: true } }));
      try {
        await c.call('load_skills', { names: ['writer'] });
        const refusals: [Json, RegExp][] = [
          [{ script: 'scripts/missing.sh' }, /missing\.sh/],
          [{ script: '../../etc/passwd' }, /outside|\.\./],
          [{ script: 'scripts' }, /folder/],
          [{ script: 'scripts/write.sh', env: { 'BAD-NAME': 'x' } }, /BAD-NAME/],
          [{ script: 'scripts/write.sh', skill: 'nope' }, /nope/],
        ];
        for (const [args, why] of refusals) {
          const r = await c.call('run_skill_script', args);
          assert.equal(r.isError, true, `${JSON.stringify(args)}: ${text(r)}`);
          assert.match(text(r), why);
          assert.doesNotMatch(text(r), /declined|dismissed|ticking/);
        }
        assert.equal(c.asked.length, 0, `no question for a run that cannot happen: ${c.asked.join(' | ')}`);
        // The same client is still asked about a run that can happen.
        const ran = path.join(tmp.dir, 'ran.txt');
        assert.equal((await c.call('run_skill_script', { script: 'scripts/write.sh', args: [ran] })).isError, false);
        assert.equal(c.asked.length, 1);
        assert.ok(fs.existsSync(ran));
      } finally {
        await c.client.close();
      }
    });
  }

  for (const era of ['legacy', 'modern'] as const) {
    it(`${era === 'legacy' ? '2025-11-25' : MODERN}: a required sandbox that cannot start (a bwrap that fails its trial run) refuses the run with its reason, without a question`, async () => {
      // The runner's own check before staging refuses it (sandbox_unavailable); the confirmation has no branch of its own for it.
      const fakeBin = path.join(tmp.dir, 'fake-bin');
      fs.mkdirSync(fakeBin);
      fs.writeFileSync(path.join(fakeBin, 'bwrap'), '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n', { mode: 0o755 });
      const s = await startHttpProcess(serverArgs(path.join(tmp.dir, 'skills'), path.join(tmp.dir, 'state'), ['--http', '127.0.0.1:0', '--allow-scripts', '--sandbox', 'required']), { PATH: `${fakeBin}${path.delimiter}${process.env.PATH}` });
      stops.push(s.stop);
      const c = await askingClient(s.url, era, () => ({ action: 'accept', content: { run: true } }));
      try {
        await c.call('load_skills', { names: ['writer'] });
        const ran = path.join(tmp.dir, 'ran.txt');
        const r = await c.call('run_skill_script', { script: 'scripts/write.sh', args: [ran] });
        assert.equal(r.isError, true, text(r));
        assert.match(text(r), /sandbox is required but unavailable|sandbox_unavailable/);
        assert.match(text(r), /fake-bin\/bwrap/);
        assert.equal(c.asked.length, 0, `no question for a run the sandbox refuses: ${c.asked.join(' | ')}`);
        assert.ok(!fs.existsSync(ran));
      } finally {
        await c.client.close();
      }
    });
  }

  for (const era of ['legacy', 'modern'] as const) {
    it(`stdio, ${era === 'legacy' ? '2025-11-25' : MODERN}: accept runs the script, decline runs nothing`, async () => {
      let answer: Answer = { action: 'accept', content: { run: true } };
      const c = await askingClient(serverArgs(path.join(tmp.dir, 'skills'), path.join(tmp.dir, 'state'), ['--allow-scripts', '--sandbox', 'off']), era, () => answer);
      try {
        await c.call('load_skills', { names: ['writer'] });
        const yes = path.join(tmp.dir, 'yes.txt');
        assert.equal((await c.call('run_skill_script', { script: 'scripts/write.sh', args: [yes] })).isError, false);
        assert.ok(fs.existsSync(yes));
        answer = { action: 'decline' };
        const no = path.join(tmp.dir, 'no.txt');
        assert.match(text(await c.call('run_skill_script', { script: 'scripts/write.sh', args: [no] })), /declined/);
        assert.ok(!fs.existsSync(no));
        assert.equal(c.asked.length, 2);
      } finally {
        await c.client.close();
      }
    });
  }

  it(`${MODERN}: the server's own checks of a retry (raw requests): a hostile answer, a changed or foreign requestState, an answer without one`, async () => {
    const s = await start();
    const meta = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} }, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' } };
    const post = (id: number, params: Json) => postJson(s.url, { jsonrpc: '2.0', id, method: 'tools/call', params: { ...params, _meta: meta } }, { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': String(params.name) });
    const loaded = await post(1, { name: 'load_skills', arguments: { names: ['writer'] } });
    const session = loaded.json?.result._meta[SESSION_META] as string;
    const file = path.join(tmp.dir, 'raw.txt');
    const args = { script: 'scripts/write.sh', args: [file], session };
    const first = await post(2, { name: 'run_skill_script', arguments: args });
    const result = first.json?.result;
    assert.equal(result?.resultType, 'input_required', JSON.stringify(first.json));
    assert.equal(result.inputRequests.run_script_consent.method, 'elicitation/create');
    assert.deepEqual(result.inputRequests.run_script_consent.params.requestedSchema.required, ['run']);
    const state = result.requestState as string;
    const expectError = async (id: number, params: Json, pattern: RegExp) => {
      const r = await post(id, { name: 'run_skill_script', ...params });
      assert.equal(r.json?.error?.code, -32602, JSON.stringify(r.json));
      assert.match(r.json.error.message, pattern);
      assert.ok(!fs.existsSync(file), 'nothing ran');
    };
    const yes = { run_script_consent: { action: 'accept', content: { run: true } } };
    await expectError(3, { arguments: args, requestState: state, inputResponses: { run_script_consent: { action: 'accept', content: { run: 'yes' } } } }, /content\.run' must be true or false/);
    await expectError(4, { arguments: args, requestState: state, inputResponses: { run_script_consent: 'accept' } }, /expected an elicitation result object/);
    await expectError(5, { arguments: args, requestState: state, inputResponses: [] }, /inputResponses must be an object/);
    const [body, sig] = state.split('.');
    const changed = Buffer.from(Buffer.from(body, 'base64url').toString('utf8').replace(/"e":\d+/, '"e":99999999999999')).toString('base64url');
    await expectError(6, { arguments: args, requestState: `${changed}.${sig}`, inputResponses: yes }, /requestState failed verification/);
    await expectError(7, { arguments: args, requestState: 'x'.repeat(5000), inputResponses: yes }, /over 1024 characters/);
    // The state of this question, brought back with other arguments (another file to write): another call's state.
    await expectError(8, { arguments: { ...args, args: [path.join(tmp.dir, 'other.txt')] }, requestState: state, inputResponses: yes }, /belongs to another call/);
    assert.ok(!fs.existsSync(path.join(tmp.dir, 'other.txt')));
    // An answer with no requestState: asked again, nothing run.
    const again = await post(9, { name: 'run_skill_script', arguments: args, inputResponses: yes });
    assert.equal(again.json?.result?.resultType, 'input_required');
    assert.ok(!fs.existsSync(file));
    // The state and a yes: it runs.
    const ok = await post(10, { name: 'run_skill_script', arguments: args, requestState: state, inputResponses: yes });
    assert.equal(ok.json?.result?.isError, false, JSON.stringify(ok.json));
    assert.equal(fs.readFileSync(file, 'utf8'), 'ran\n');
    // The same retry again (a replay of the one yes): asked again, the script does not run twice.
    fs.rmSync(file);
    const replay = await post(11, { name: 'run_skill_script', arguments: args, requestState: state, inputResponses: yes });
    assert.equal(replay.json?.result?.resultType, 'input_required', JSON.stringify(replay.json));
    assert.ok(!fs.existsSync(file), 'a replayed yes runs nothing');
  });

  it(`${MODERN}: a requestState is bound to its caller: refused for another session's handle, and under another bearer token (two servers over one state folder, so one signing key and one set of sessions)`, async () => {
    const [t1, t2] = ['first-token-0123456789abcdef', 'second-token-0123456789abcdef'];
    const one = await start(['--token', t1]);
    const two = await start(['--token', t2]);
    const meta = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} }, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' } };
    let id = 0;
    const call = (s: { url: URL }, token: string, params: Json) =>
      postJson(s.url, { jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { ...params, _meta: meta } }, { authorization: `Bearer ${token}`, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': String(params.name) });
    const handleOf = async (s: { url: URL }, token: string) => {
      const r = await call(s, token, { name: 'load_skills', arguments: { names: ['writer'] } });
      const h = r.json?.result?._meta?.[SESSION_META];
      assert.equal(typeof h, 'string', JSON.stringify(r.json));
      return h as string;
    };
    const alice = await handleOf(one, t1);
    const mallory = await handleOf(one, t1);
    const file = path.join(tmp.dir, 'alice.txt');
    const script = { script: 'scripts/write.sh', args: [file] };
    const asked = await call(one, t1, { name: 'run_skill_script', arguments: { ...script, session: alice } });
    assert.equal(asked.json?.result?.resultType, 'input_required', JSON.stringify(asked.json));
    const state = asked.json?.result.requestState as string;
    const yes = { run_script_consent: { action: 'accept', content: { run: true } } };
    const refused = async (s: { url: URL }, token: string, session: string, why: string) => {
      const r = await call(s, token, { name: 'run_skill_script', arguments: { ...script, session }, requestState: state, inputResponses: yes });
      assert.equal(r.json?.error?.code, -32602, `${why}: ${JSON.stringify(r.json)}`);
      assert.match(r.json.error.message, /belongs to another call/, why);
      assert.ok(!fs.existsSync(file), `${why}: nothing ran`);
    };
    // Another client's session on the same server, with Alice's state and a yes it made up.
    await refused(one, t1, mallory, "Mallory's handle");
    // Alice's own handle and state, through a server with another token (the store and the signing key are shared).
    await refused(two, t2, alice, 'another bearer token');
    // The other server does serve Alice's session (so the refusal above is the token's): it asks her there.
    const there = await call(two, t2, { name: 'run_skill_script', arguments: { ...script, session: alice } });
    assert.equal(there.json?.result?.resultType, 'input_required', JSON.stringify(there.json));
    // And Alice's state, with her handle, on the server that gave it, runs: it was valid all along.
    const ok = await call(one, t1, { name: 'run_skill_script', arguments: { ...script, session: alice }, requestState: state, inputResponses: yes });
    assert.equal(ok.json?.result?.isError, false, JSON.stringify(ok.json));
    assert.equal(fs.readFileSync(file, 'utf8'), 'ran\n');
  });

  it('2025-11-25 with --state-store: a run of a session that can be asked, reaching a replica that did not initialize it, is refused; on its own replica it is asked', async () => {
    const redis = await startRedis();
    stops.push(() => redis.stop());
    const [a, b] = await startReplicas(path.join(tmp.dir, 'skills'), tmp.dir, redis.url, stops, ['a', 'b'], ['--allow-scripts', '--sandbox', 'off']);
    const c = await askingClient(a.url, 'legacy', () => ({ action: 'accept', content: { run: true } }));
    try {
      await c.call('load_skills', { names: ['writer'] });
      const sid = (c.client as unknown as { transport?: { sessionId?: string } }).transport?.sessionId as string;
      assert.match(sid, /^[0-9a-f-]{36}$/);
      const onB = path.join(tmp.dir, 'on-b.txt');
      const r = await postJson(b.url, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'run_skill_script', arguments: { script: 'scripts/write.sh', args: [onB] } } }, { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' });
      assert.equal(r.json?.result?.isError, true, JSON.stringify(r.json));
      assert.match(r.json.result.content[0].text, /did not initialize the session.*sticky sessions.*2026-07-28/s);
      assert.ok(!fs.existsSync(onB), 'not run unasked on the other replica');
      const onA = path.join(tmp.dir, 'on-a.txt');
      assert.equal((await c.call('run_skill_script', { script: 'scripts/write.sh', args: [onA] })).isError, false);
      assert.equal(c.asked.length, 1);
      assert.ok(fs.existsSync(onA));
    } finally {
      await c.client.close();
    }
  });

  for (const shared of [false, true]) {
    it(`2025-11-25${shared ? ' with --state-store' : ''}: while a run's question waits, the session's other requests (tool calls too) are answered; a skill swapped in meanwhile is not run on the yes`, async () => {
      // Written before the server starts: written after, a load could reach the server before its watcher saw them
      // (CI as uid 1001: "No skill named 'plain' was found").
      writeSkill(path.join(tmp.dir, 'skills'), 'other', { body: 'Another skill with the same script path.', files: { 'scripts/write.sh': 'echo other > "$1"\n' } });
      writeSkill(path.join(tmp.dir, 'skills'), 'plain', { body: 'A skill without scripts.' });
      let url: URL;
      if (shared) {
        const redis = await startRedis();
        stops.push(() => redis.stop());
        url = (await startReplicas(path.join(tmp.dir, 'skills'), tmp.dir, redis.url, stops, ['a'], ['--allow-scripts', '--sandbox', 'off']))[0].url;
      } else url = (await start()).url;
      let release!: () => void;
      let answered = new Promise<void>((resolve) => (release = resolve));
      const c = await askingClient(url, 'legacy', () => answered.then(() => ({ action: 'accept', content: { run: true } })) as never);
      try {
        await c.call('load_skills', { names: ['writer'] });
        const file = path.join(tmp.dir, 'waited.txt');
        // Named (a call without `skill` runs in the skill loaded last, which the load below changes).
        const run = c.call('run_skill_script', { skill: 'writer', script: 'scripts/write.sh', args: [file] });
        await waitFor('the question', () => (c.asked.length === 1 ? true : undefined), 30_000);
        // While the user has not answered: a resource read and a prompt list, and a tool call of the same session.
        const read = await c.client.readResource({ uri: 'skill://writer/SKILL.md' });
        assert.match(JSON.stringify(read), /scripts\/write\.sh/);
        // Tool calls of the same session, answered before the user answers (the question is held open until then).
        const meanwhile = async (what: string, p: Promise<Json>) => {
          let timer: NodeJS.Timeout | undefined;
          const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer in 30 s while the question waits (held behind it)`)), 30_000)));
          const r = await Promise.race([p, late]).finally(() => clearTimeout(timer));
          assert.equal(r.isError, false, `${what}: ${text(r)}`);
        };
        await meanwhile('list_skills', c.call('list_skills', {}));
        await meanwhile('load_skills plain', c.call('load_skills', { names: ['plain'], mode: 'add' }));
        assert.ok(!fs.existsSync(file));
        release();
        const ran = await run;
        assert.equal(ran.isError, false, `the yes runs what was asked about: ${text(ran)}`);
        assert.equal(fs.readFileSync(file, 'utf8'), 'ran\n');
        // The session kept both the load made while the question waited and what the run left.
        assert.match(text(await c.call('list_skills', { filter: 'plain' })), /plain/);
        // A swap while asked: the question names writer (the skill loaded last, so a call without `skill` runs there);
        // meanwhile `other`, with the same script path, is loaded in its place. The yes runs nothing.
        assert.equal((await c.call('load_skills', { names: ['writer'] })).isError, false);
        let release2!: () => void;
        const answered2 = new Promise<void>((resolve) => (release2 = resolve));
        answered = answered2;
        const file2 = path.join(tmp.dir, 'swapped.txt');
        const run2 = c.call('run_skill_script', { script: 'scripts/write.sh', args: [file2] });
        await waitFor('the second question', () => (c.asked.length === 2 ? true : undefined), 30_000);
        assert.match(c.asked[1], /skill "writer"/);
        assert.equal((await c.call('load_skills', { names: ['other'] })).isError, false);
        release2();
        const swapped = await run2;
        assert.equal(swapped.isError, true, text(swapped));
        assert.match(text(swapped), /asked about skill "writer".*would now run skill "other"/s);
        assert.ok(!fs.existsSync(file2), 'the swapped-in skill did not run on a yes given for another');
      } finally {
        release();
        await c.client.close();
      }
    });
  }

  it('a client without elicitation runs as before with the default (when-supported), and is refused with --confirm-scripts always; never asks no one', async () => {
    const run = async (url: URL, file: string) => {
      const loaded = await modernPost(url, 1, 'tools/call', { name: 'load_skills', arguments: { names: ['writer'] } });
      const session = loaded.json?.result._meta[SESSION_META];
      return (await modernPost(url, 2, 'tools/call', { name: 'run_skill_script', arguments: { script: 'scripts/write.sh', args: [file], session } })).json?.result;
    };
    const dflt = await start();
    const plain = path.join(tmp.dir, 'plain.txt');
    assert.equal((await run(dflt.url, plain)).isError, false);
    assert.ok(fs.existsSync(plain), 'when-supported: a client that cannot be asked runs as before');
    const always = await start(['--confirm-scripts', 'always']);
    const refused = path.join(tmp.dir, 'refused.txt');
    const r = await run(always.url, refused);
    assert.equal(r.isError, true);
    assert.match(r.content[0].text, /--confirm-scripts always.*did not declare the MCP elicitation capability/s);
    assert.ok(!fs.existsSync(refused));
    // never: a client that can be asked is not asked.
    const never = await start(['--confirm-scripts', 'never']);
    const c = await askingClient(never.url, 'modern', () => ({ action: 'decline' }));
    try {
      await c.call('load_skills', { names: ['writer'] });
      const file = path.join(tmp.dir, 'never.txt');
      assert.equal((await c.call('run_skill_script', { script: 'scripts/write.sh', args: [file] })).isError, false);
      assert.equal(c.asked.length, 0);
      assert.ok(fs.existsSync(file));
    } finally {
      await c.client.close();
    }
  });
});
