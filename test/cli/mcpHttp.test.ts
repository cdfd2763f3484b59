import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as http from 'node:http';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { makeTempDir } from '../support/tempDir';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { httpClient, serverArgs, sha256, startHttpProcess, toolText, waitFor, writeFixtureSkills } from './mcpSupport';
import * as fs from 'node:fs';

const TOKEN = 'test-token-0123456789abcdef';
const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });

/** One raw HTTP request (headers exactly as given), for the attacks an SDK client would never send. */
function raw(url: URL, o: { method?: string; headers?: Record<string, string>; body?: string | Buffer; setHost?: boolean }): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, method: o.method ?? 'POST', setHost: o.setHost ?? true, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...o.headers } },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(o.body);
  });
}

describe('agent-skills mcp over Streamable HTTP (SDK Client against dist/cli.js)', function () {
  this.timeout(60_000);
  let tmp: { dir: string; cleanup: () => void };
  let skills: string;
  let state: string;
  const clients: Client[] = [];
  const stops: (() => Promise<void>)[] = [];
  before(function () {
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });
  beforeEach(() => {
    tmp = makeTempDir('mcp-http-');
    skills = path.join(tmp.dir, 'skills');
    state = path.join(tmp.dir, 'state');
    writeFixtureSkills(skills);
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close().catch(() => undefined);
    for (const s of stops.splice(0)) await s();
    tmp.cleanup();
  });
  const start = async (extra: string[] = [], env: Record<string, string> = {}) => {
    const s = await startHttpProcess(serverArgs(skills, state, ['--http', '127.0.0.1:0', ...extra]), env);
    stops.push(s.stop);
    return s;
  };
  const connect = async (url: URL, headers: Record<string, string> = {}) => {
    const c = await httpClient(url, headers);
    clients.push(c.client);
    return c;
  };

  it('binds 127.0.0.1 by default, serves tools and skill:// reads, and keeps two sessions apart', async () => {
    const { url } = await start();
    assert.equal(url.hostname, '127.0.0.1');
    const a = await connect(url);
    const b = await connect(url);
    assert.notEqual(a.transport.sessionId, b.transport.sessionId);
    assert.ok((a.client.getServerCapabilities() as { extensions?: Record<string, unknown> }).extensions?.['io.modelcontextprotocol/skills']);
    const read = (await a.client.readResource({ uri: 'skill://alpha/SKILL.md' })).contents[0] as { text: string; _meta?: Record<string, unknown> };
    assert.equal(sha256(read.text), read._meta?.['io.modelcontextprotocol.skills/digest']);
    assert.equal(sha256(read.text), sha256(fs.readFileSync(path.join(skills, 'alpha/SKILL.md'))));
    const loaded = await a.client.callTool({ name: 'load_skills', arguments: { names: ['alpha'] } });
    assert.equal(loaded.isError, false, toolText(loaded));
    const inB = JSON.parse(toolText(await b.client.callTool({ name: 'unload_skills', arguments: { names: ['alpha'] } })));
    assert.deepEqual(inB.not_loaded, ['alpha'], "b's session never loaded alpha");
    const inA = JSON.parse(toolText(await a.client.callTool({ name: 'unload_skills', arguments: { names: ['alpha'] } })));
    assert.deepEqual(inA.unloaded, ['alpha'], "a's session did");
    // Ending a session ends its runtime session (the state folder keeps none of it).
    const sessionFile = (id: string) => fs.readdirSync(path.join(state, 'sessions')).some((f) => f.includes(id));
    const bId = b.transport.sessionId!;
    await waitFor("a session file for b", () => (sessionFile(bId) ? true : undefined));
    await b.transport.terminateSession();
    await waitFor("b's session file to go", () => (!sessionFile(bId) ? true : undefined));
    assert.ok(sessionFile(a.transport.sessionId!), "a's session stays");
  });

  it('refuses a wrong or missing token, an evil Origin and a rebinding Host; takes the right token', async () => {
    const { url } = await start([], { AGENT_SKILLS_MCP_TOKEN: TOKEN });
    assert.equal((await raw(url, { body: INIT })).status, 401, 'no token');
    const wrong = await raw(url, { body: INIT, headers: { authorization: `Bearer ${TOKEN.slice(0, -1)}x` } });
    assert.equal(wrong.status, 401);
    assert.match(wrong.body, /bearer token/);
    assert.equal((await raw(url, { body: INIT, headers: { authorization: `Bearer ${TOKEN}`, origin: 'https://evil.example' } })).status, 403, 'evil Origin');
    const rebound = await raw(url, { body: INIT, setHost: false, headers: { host: `evil.example:${url.port}`, authorization: `Bearer ${TOKEN}` } });
    assert.equal(rebound.status, 403, 'Host rebinding');
    assert.match(rebound.body, /DNS rebinding/);
    assert.equal((await raw(url, { body: INIT, headers: { authorization: `Bearer ${TOKEN}`, origin: `http://localhost:${url.port}` } })).status, 200, 'a loopback Origin on a loopback bind');
    const ok = await connect(url, { authorization: `Bearer ${TOKEN}` });
    assert.ok((await ok.client.listTools()).tools.length > 0);
  });

  it('refuses a huge body with 413 and stays up', async () => {
    const { url } = await start(['--max-body-kb', '64']);
    const big = await raw(url, { body: Buffer.alloc(200 * 1024, 0x20) });
    assert.equal(big.status, 413);
    // Chunked (no Content-Length): the limit holds while reading.
    const chunked = await raw(url, { body: Buffer.alloc(200 * 1024, 0x20), headers: { 'transfer-encoding': 'chunked' } }).catch((e: Error) => ({ status: -1, body: e.message }));
    assert.ok(chunked.status === 413 || chunked.status === -1, `chunked: ${chunked.status} ${chunked.body}`);
    const c = await connect(url);
    assert.ok((await c.client.listTools()).tools.length > 0, 'the server still serves');
  });

  it('caps concurrent sessions', async () => {
    // An idle timeout far beyond the test: however slow the machine, no session ends while the cap is checked.
    const { url } = await start(['--max-sessions', '2', '--idle-timeout', '600']);
    await connect(url);
    await connect(url);
    const third = await raw(url, { body: INIT });
    assert.equal(third.status, 503);
    assert.match(third.body, /--max-sessions/);
  });

  it('ends idle sessions, which frees their place', async function () {
    // The idle time is under test, so it is no deadline: it must outlast the client's own gap between initialize and
    // its initialized notification, which at load 30 was over 2 s (the session idled out inside connect).
    this.timeout(120_000);
    const { url } = await start(['--max-sessions', '1', '--idle-timeout', '10']);
    const first = await connect(url);
    // Counted from the session's last request: its place frees only once it has been idle for the timeout.
    const t0 = Date.now();
    await waitFor('the idle session to end', async () => ((await raw(url, { body: INIT })).status === 200 ? true : undefined), 60_000);
    assert.ok(Date.now() - t0 >= 9000, 'not before the idle timeout');
    await assert.rejects(first.client.listTools(), 'an idled-out session is refused');
  });

  it('refuses to listen beyond loopback without a token, and says how to fix it', () => {
    const r = spawnSync(process.execPath, serverArgs(skills, state, ['--http', '0.0.0.0:0']), { encoding: 'utf8', env: { ...process.env, AGENT_SKILLS_MCP_TOKEN: '' } });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /refusing to listen on 0\.0\.0\.0 without a bearer token/);
    assert.match(r.stderr, /AGENT_SKILLS_MCP_TOKEN/);
  });

  it('over HTTP, scripts run only in a sandbox unless --sandbox off', async () => {
    const { url, stderr } = await start(['--allow-scripts']);
    const c = await connect(url);
    await c.client.callTool({ name: 'load_skills', arguments: { names: ['alpha'] } });
    const run = await c.client.callTool({ name: 'run_skill_script', arguments: { skill: 'alpha', script: 'scripts/echo.sh' } });
    const text = toolText(run);
    if (run.isError) {
      assert.match(text, /sandbox/i, 'a refusal names the sandbox');
      assert.match(stderr(), /sandbox/i, 'the server said so when it started');
    } else assert.equal(JSON.parse(text).sandboxed, true, 'a run that went ahead was sandboxed');
    // Where bubblewrap cannot run (a fake one on PATH fails its trial run), the run is refused with the reason.
    const fakeBin = path.join(tmp.dir, 'fake-bin');
    fs.mkdirSync(fakeBin);
    fs.writeFileSync(path.join(fakeBin, 'bwrap'), '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n', { mode: 0o755 });
    const noSandbox = await start(['--allow-scripts'], { PATH: `${fakeBin}:${process.env.PATH}` });
    const c3 = await connect(noSandbox.url);
    await c3.client.callTool({ name: 'load_skills', arguments: { names: ['alpha'] } });
    const refused = await c3.client.callTool({ name: 'run_skill_script', arguments: { skill: 'alpha', script: 'scripts/echo.sh' } });
    assert.equal(refused.isError, true, toolText(refused));
    assert.match(toolText(refused), /sandbox/i);
    assert.doesNotMatch(toolText(refused), /alpha says/, 'the script did not run');
    assert.match(noSandbox.stderr(), /fake-bin\/bwrap failed a trial run/);
    const off = await start(['--allow-scripts', '--sandbox', 'off']);
    const c2 = await connect(off.url);
    await c2.client.callTool({ name: 'load_skills', arguments: { names: ['alpha'] } });
    const run2 = await c2.client.callTool({ name: 'run_skill_script', arguments: { skill: 'alpha', script: 'scripts/echo.sh', args: ['x'] } });
    assert.equal(run2.isError, false, toolText(run2));
    assert.equal(JSON.parse(toolText(run2)).stdout, 'alpha says: x\n');
  });
});
