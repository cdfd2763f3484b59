// Issue 26 point 6: several replicas of `agent-skills mcp` behind a plain load balancer. A real redis-server (no
// persistence, its own temp folder, a loopback port), two real `dist/cli.js mcp --http --state-store redis://…`
// processes, and a round-robin proxy written here that sends each request to the next replica (a request whose
// replica is gone before it answered is sent to the other, as a load balancer's retry does). 50 clients of the
// 2026-07-28 revision each thread their session handle through six loads; one replica is killed (SIGKILL) mid-run.
// No session may be lost and every answer must be the one a single server (state folder, no Redis) gives.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { Redis } from 'ioredis';
import { decodeStored, handleKey } from '../../src/core/runtime/sessionStateStore';
import { httpClient, modernPost, postJson, serverArgs, startHttpProcess, startReplicas, toolText, type Json, replicaSuite } from './mcpSupport';

const CLIENTS = 50;
const SKILLS = ['alpha', 'beta', 'gamma'];
const SESSION_META = 'io.github.agent-skills/session';

/** Client `i`'s six calls over its rotation of the skills: each answer lists the session's skills in load order. */
function steps(i: number): Json[] {
  const o = SKILLS.map((_, k) => SKILLS[(i + k) % SKILLS.length]);
  return [
    { names: [o[0]], mode: 'add' },
    { names: [o[1]], mode: 'add' },
    { names: [o[2]], mode: 'add' },
    { names: [o[1]], mode: 'replace' },
    { names: [o[0]], mode: 'add' },
    { names: [o[2]], mode: 'add' },
  ];
}

/**
 * A round-robin HTTP proxy on loopback; `served[k]` counts answers from upstream k. An upstream that refused or
 * dropped a connection is left out from then on (a load balancer's passive health check).
 */
function roundRobinProxy(upstreams: URL[]): Promise<{ url: URL; served: number[]; retried: () => number; close: () => Promise<void> }> {
  let next = 0;
  let retried = 0;
  const served = upstreams.map(() => 0);
  const down = upstreams.map(() => false);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const attempt = (left: number) => {
        let k = next++ % upstreams.length;
        if (down[k]) k = down.findIndex((d) => !d);
        if (k < 0) return void res.writeHead(502).end('proxy: every upstream is down');
        const u = upstreams[k];
        const up = http.request({ host: u.hostname, port: u.port, path: req.url, method: req.method, headers: { ...req.headers, host: u.host }, agent }, (ur) => {
          served[k]++;
          res.writeHead(ur.statusCode ?? 502, ur.headers);
          ur.pipe(res);
        });
        // The replica is gone before it answered (refused, reset): the next one gets the request.
        up.on('error', (e) => {
          down[k] = true;
          if (left > 0 && !res.headersSent) {
            retried++;
            attempt(left - 1);
          } else if (!res.headersSent) {
            res.writeHead(502).end(`proxy: ${e.message}`);
          } else res.destroy();
        });
        up.end(body);
      };
      attempt(upstreams.length * 2);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: new URL(`http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`),
        served,
        retried: () => retried,
        close: () => {
          agent.destroy();
          server.closeAllConnections();
          return new Promise<void>((r) => server.close(() => r()));
        },
      }),
    ),
  );
}

/** One load through `url` in session `handle` (a new one when undefined); the answer with its handle taken out. */
/** A 2025-11-25 session's GET notification stream: the status and headers (the stream itself is closed at once). */
function openStream(url: URL, sid: string): Promise<{ status: number; contentType: string; allow: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' } }, (res) => {
      const head = { status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), allow: String(res.headers.allow ?? '') };
      if (head.status === 200) {
        req.destroy();
        return resolve({ ...head, body: '' });
      }
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ ...head, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function load(url: URL, id: number, args: Json, handle: string | undefined): Promise<{ handle: string; answer: string }> {
  const r = await modernPost(url, id, 'tools/call', { name: 'load_skills', arguments: { ...args, ...(handle ? { session: handle } : {}) } });
  assert.equal(r.status, 200, JSON.stringify(r.json) ?? "(no JSON body)");
  const result = r.json?.result;
  assert.ok(result, `no result: ${JSON.stringify(r.json)}`);
  const h = result._meta?.[SESSION_META] as string;
  assert.match(h, /^ash_/, JSON.stringify(result));
  return { handle: h, answer: JSON.stringify(result).split(h).join('<handle>') };
}

describe('MCP 2026-07-28 over two replicas sharing Redis, behind a round-robin proxy', function () {
  this.timeout(240_000);
  const fx = replicaSuite('mcp-replicas-');

  it(`${CLIENTS} clients keep their sessions while one replica is killed mid-run, and every answer is a single server's`, async () => {
    const skills = fx.skills;
    // What one server alone answers (its handles in its state folder), for each of the three rotations.
    const single = await startHttpProcess(serverArgs(skills, path.join(fx.dir, 'single'), ['--http', '127.0.0.1:0']));
    fx.stops.push(single.stop);
    const expected: string[][] = [];
    for (let i = 0; i < SKILLS.length; i++) {
      let h: string | undefined;
      const answers: string[] = [];
      for (const [k, args] of steps(i).entries()) {
        const r = await load(single.url, k + 1, args, h);
        h = r.handle;
        answers.push(r.answer);
      }
      expected.push(answers);
    }
    assert.match(expected[0][2], /alpha.*beta.*gamma/s, 'the third answer lists the three skills in load order');
    assert.ok(fs.existsSync(path.join(fx.dir, 'single', 'handles')), 'the single server kept its handles in its state folder');

    const redis = await fx.startRedis();
    const replicas = await startReplicas(skills, fx.dir, redis.url, fx.stops);
    const proxy = await roundRobinProxy(replicas.map((r) => r.url));
    fx.stops.push(proxy.close);

    // Kill replica a once a third of all calls have been answered: some of its requests are in flight then.
    const total = CLIENTS * 6;
    let answered = 0;
    let answeredAtKill = -1;
    const killed = new Promise<void>((resolve) => replicas[0].child.once('exit', () => resolve()));
    const tick = () => {
      answered++;
      if (answered === Math.floor(total / 3)) {
        answeredAtKill = answered;
        replicas[0].child.kill('SIGKILL');
      }
    };
    const results = await Promise.all(
      Array.from({ length: CLIENTS }, async (_, i) => {
        let h: string | undefined;
        const answers: string[] = [];
        const handles = new Set<string>();
        for (const [k, args] of steps(i).entries()) {
          const r = await load(proxy.url, i * 10 + k, args, h);
          h = r.handle;
          handles.add(r.handle);
          answers.push(r.answer);
          tick();
        }
        return { answers, handles, handle: h as string };
      }),
    );
    await killed;
    assert.ok(answeredAtKill > 0 && answeredAtKill < total, 'the replica was killed mid-run');
    assert.equal(replicas[0].child.signalCode, 'SIGKILL');
    assert.ok(proxy.served[0] > 0 && proxy.served[1] > 0, `both replicas answered (${proxy.served.join(' / ')})`);
    const lost = results.filter((r) => r.handles.size !== 1).length;
    assert.equal(lost, 0, 'every client kept its one session handle through all six calls');
    let differing = 0;
    for (const [i, r] of results.entries()) {
      for (const [k, a] of r.answers.entries()) {
        if (a !== expected[i % SKILLS.length][k]) {
          differing++;
          if (differing === 1) assert.equal(a, expected[i % SKILLS.length][k], `client ${i}, call ${k + 1}`);
        }
      }
    }
    assert.equal(differing, 0);
    // The audit trail travels with the session: six loads (one more for each call retried after its save), whichever replica ran them.
    const raw = new Redis(redis.url);
    try {
      for (const [i, r] of results.entries()) {
        const key = handleKey(r.handle);
        const stored = decodeStored('test', key, (await raw.getBuffer(`agent-skills:session:${key}`)) ?? Buffer.alloc(0));
        const o = steps(i).map((st) => st.names[0] as string);
        assert.deepEqual(stored.state.active_skills.map((a) => a.name), [o[3], o[4], o[5]], 'the session holds its skills in load order');
        const loads = stored.audit.filter((e) => e.action === 'load' && e.outcome === 'ok').length;
        assert.ok(loads >= 6 && loads <= 6 + proxy.retried() && loads === stored.audit.length, `client ${r.handle.slice(0, 8)}: ${stored.audit.length} audit entries`);
      }
    } finally {
      raw.disconnect();
    }
    for (const r of replicas) assert.match(r.stderr(), /session handles are kept in the Redis state store redis:\/\/127\.0\.0\.1:\d+\/0/);
    // The replicas kept no session in their own state folders: every handle's state is in Redis.
    for (const name of ['a', 'b']) assert.ok(!fs.existsSync(path.join(fx.dir, `state-${name}`, 'handles')), `replica ${name} wrote no handles folder`);
    console.log(`      ${CLIENTS} clients x 6 calls: replica a answered ${proxy.served[0]}, replica b ${proxy.served[1]}, killed after ${answeredAtKill} answers, ${proxy.retried()} request(s) retried on the other replica; 0 sessions lost, 0 answers differ`);
  });

  it('a handle from one replica works on the other; an unknown or malformed handle is a tool error naming the fix', async () => {
    const redis = await fx.startRedis();
    const skills = fx.skills;
    const a = await startHttpProcess(serverArgs(skills, path.join(fx.dir, 'sa'), ['--http', '127.0.0.1:0', '--state-store', redis.url]));
    fx.stops.push(a.stop);
    const b = await startHttpProcess(serverArgs(skills, path.join(fx.dir, 'sb'), ['--http', '127.0.0.1:0', '--state-store', redis.url]));
    fx.stops.push(b.stop);
    const first = await load(a.url, 1, { names: ['alpha'], mode: 'add' }, undefined);
    const second = await load(b.url, 2, { names: ['beta'], mode: 'add' }, first.handle);
    assert.equal(second.handle, first.handle);
    assert.match(second.answer, /"name\\":\\"alpha\\".*"name\\":\\"beta\\"/s, 'replica b continued replica a\'s session');
    // A handle of another Redis (never minted here) and one that is not a handle.
    for (const bad of [`ash_${'A'.repeat(43)}`, '../../etc/passwd', 'x'.repeat(100_000)]) {
      const r = await modernPost(b.url, 3, 'tools/call', { name: 'load_skills', arguments: { names: ['alpha'], session: bad } });
      assert.equal(r.json?.result?.isError, true, JSON.stringify(r.json).slice(0, 300));
      assert.match(r.json?.result.content[0].text, /unknown_session.*without "session"/s);
      assert.ok(JSON.stringify(r.json).length < 2000, 'the answer does not echo a long handle back');
    }
    // Redis gone: the call fails with a protocol error naming the store, not silently in a new session.
    await fx.stopRedis();
    const down = await modernPost(b.url, 4, 'tools/call', { name: 'load_skills', arguments: { names: ['alpha'], session: first.handle } });
    assert.equal(down.json?.error?.code, -32603, JSON.stringify(down.json));
    assert.match(down.json?.error?.message, /Redis state store redis:\/\/127\.0\.0\.1:\d+\/0/);
  });

  it('list_skills and find_skills (tools that never read session state) mint no handle and store nothing; load_skills does', async () => {
    const redis = await fx.startRedis();
    const skills = fx.skills;
    const viaRedis = await startHttpProcess(serverArgs(skills, path.join(fx.dir, 'sr'), ['--http', '127.0.0.1:0', '--state-store', redis.url]));
    fx.stops.push(viaRedis.stop);
    const folderState = path.join(fx.dir, 'sf');
    const viaFolder = await startHttpProcess(serverArgs(skills, folderState, ['--http', '127.0.0.1:0']));
    fx.stops.push(viaFolder.stop);
    const raw = new Redis(redis.url);
    const handlesDir = path.join(folderState, 'handles');
    // The folder's sessions: its files but the pid file its locks link to (`.lock-owner-<pid>`) and the empty files its
    // saves rename into place (`.spare.tmp-<pid>-<tag>`), both kept while the server runs.
    const stored = async () => ({ redis: await raw.dbsize(), folder: fs.existsSync(handlesDir) ? fs.readdirSync(handlesDir).filter((n) => !n.startsWith('.lock-owner-') && !n.startsWith('.spare.tmp-')).length : 0 });
    try {
      for (const url of [viaRedis.url, viaFolder.url]) {
        const listed = await modernPost(url, 1, 'tools/list', {});
        const schemaOf = (n: string) => (listed.json?.result.tools as Json[]).find((t) => t.name === n)?.inputSchema.properties ?? {};
        assert.ok(!('session' in schemaOf('list_skills')) && !('session' in schemaOf('find_skills')), 'no session argument offered where no session is read');
        assert.ok('session' in schemaOf('load_skills'), 'load_skills takes the session argument');
        for (const [name, args] of [['list_skills', {}], ['list_skills', { filter: 'alpha' }], ['find_skills', { query: 'alpha things' }]] as const) {
          const r = await modernPost(url, 2, 'tools/call', { name, arguments: args });
          assert.equal(r.json?.result?.isError, false, JSON.stringify(r.json).slice(0, 300));
          assert.equal(r.json.result._meta?.[SESSION_META], undefined, `${name}: no handle in _meta`);
          assert.doesNotMatch(JSON.stringify(r.json.result.content), /Session: ash_/, `${name}: no handle in the text`);
        }
        // A tool the server does not offer is a protocol error, and opens no session either.
        const unknown = await modernPost(url, 3, 'tools/call', { name: 'no_such_tool', arguments: {} });
        assert.equal(unknown.json?.error?.code, -32602);
      }
      assert.deepEqual(await stored(), { redis: 0, folder: 0 }, 'neither store holds a key after the calls above');
      // The same check sees a stateful call's key: one in each store.
      for (const url of [viaRedis.url, viaFolder.url]) await load(url, 4, { names: ['alpha'], mode: 'add' }, undefined);
      assert.deepEqual(await stored(), { redis: 1, folder: 1 });
    } finally {
      raw.disconnect();
    }
  });

  it('2025-11-25 sessions need no sticky routing with a shared store: either replica serves a session, DELETE ends it for both', async () => {
    const skills = fx.skills;
    /** A 2025-11-25 client (the SDK's, initialize then Mcp-Session-Id) running client i's six loads; the answers' texts. */
    const legacyRun = async (url: URL, i: number) => {
      const c = await httpClient(url);
      const answers: string[] = [];
      for (const args of steps(i)) answers.push(toolText(await c.client.callTool({ name: 'load_skills', arguments: args })));
      return { ...c, answers };
    };
    const single = await startHttpProcess(serverArgs(skills, path.join(fx.dir, 'single'), ['--http', '127.0.0.1:0']));
    fx.stops.push(single.stop);
    const expected: string[][] = [];
    for (let i = 0; i < SKILLS.length; i++) {
      const r = await legacyRun(single.url, i);
      expected.push(r.answers);
      await r.client.close();
    }
    assert.match(expected[0][2], /alpha.*beta.*gamma/s);

    const redis = await fx.startRedis();
    const replicas = await startReplicas(skills, fx.dir, redis.url, fx.stops);
    const proxy = await roundRobinProxy(replicas.map((r) => r.url));
    fx.stops.push(proxy.close);
    // One client alone first: round robin sends its requests to a and b in turn, so its session is served by both.
    const solo = await legacyRun(proxy.url, 0);
    assert.deepEqual(solo.answers, expected[0], 'one session served by both replicas in turn answers as a single server');
    assert.ok(proxy.served[0] >= 3 && proxy.served[1] >= 3, `both replicas served the session (${proxy.served.join(' / ')})`);
    const clients = await Promise.all(Array.from({ length: 10 }, (_, i) => legacyRun(proxy.url, i)));
    for (const [i, c] of clients.entries()) assert.deepEqual(c.answers, expected[i % SKILLS.length], `client ${i}`);
    const raw = new Redis(redis.url);
    try {
      assert.equal(await raw.dbsize(), 11, 'one stored session per 2025-11-25 session');
      const sid = solo.transport.sessionId as string;
      // A session's GET notification stream (2025-11-25 transports: an SSE stream, or 405 when the server offers none
      // there): the replica that initialized it serves it; the other answers 405 naming where to go instead. A raw
      // session initialized on replica a (an SDK client opens its own stream at once, and a second one is a 409).
      const init = await postJson(replicas[0].url, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
      const rawSid = String(init.headers['mcp-session-id']);
      assert.equal(init.status, 200, JSON.stringify(init.json));
      const initialized = await postJson(replicas[0].url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': rawSid, 'mcp-protocol-version': '2025-11-25' });
      assert.equal(initialized.status, 202);
      const [onA, onB] = await Promise.all(replicas.map((r) => openStream(r.url, rawSid)));
      assert.equal(onA.status, 200, JSON.stringify(onA));
      assert.match(onA.contentType, /^text\/event-stream/);
      assert.equal(onB.status, 405, JSON.stringify(onB));
      assert.equal(onB.allow, 'POST, DELETE');
      assert.match(onB.body, /served by the replica that initialized it.*subscriptions\/listen/s);
      // DELETE on the replica that did not create it ends it for both.
      const ended = await new Promise<number>((resolve, reject) => {
        const u = replicas[1].url;
        http.request({ host: u.hostname, port: u.port, path: u.pathname, method: 'DELETE', headers: { 'mcp-session-id': rawSid, 'mcp-protocol-version': '2025-11-25' } }, (res) => resolve(res.resume().statusCode ?? 0)).on('error', reject).end();
      });
      assert.equal(ended, 200);
      assert.equal(await raw.dbsize(), 11);
      // DELETE through either replica ends the session for both: its state is gone and each replica answers 404.
      await solo.transport.terminateSession();
      assert.equal(await raw.dbsize(), 10);
      for (const r of replicas) {
        const after = await postJson(r.url, { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'load_skills', arguments: { names: ['alpha'] } } }, { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' });
        assert.equal(after.status, 404, JSON.stringify(after.json));
      }
    } finally {
      raw.disconnect();
      for (const c of [solo, ...clients]) await c.client.close().catch(() => undefined);
    }
    console.log(`      2025-11-25: 11 sessions over two replicas without sticky routing (replica a answered ${proxy.served[0]}, b ${proxy.served[1]}); every answer a single server's`);
  });

  it('2025-11-25 sessions without a shared store stay with their replica: another replica answers 404', async () => {
    const skills = fx.skills;
    const a = await startHttpProcess(serverArgs(skills, path.join(fx.dir, 'sa'), ['--http', '127.0.0.1:0']));
    fx.stops.push(a.stop);
    const b = await startHttpProcess(serverArgs(skills, path.join(fx.dir, 'sb'), ['--http', '127.0.0.1:0']));
    fx.stops.push(b.stop);
    const c = await httpClient(a.url);
    try {
      const other = await postJson(b.url, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }, { 'mcp-session-id': c.transport.sessionId as string, 'mcp-protocol-version': '2025-11-25' });
      assert.equal(other.status, 404);
      assert.match(JSON.stringify(other.json), /not known here/);
    } finally {
      await c.client.close();
    }
  });
});
