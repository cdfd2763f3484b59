// The protocol as the specification words it, through the real `dist/cli.js mcp` (raw HTTP and raw stdio where an
// SDK client would never send the message, the SDK client elsewhere): a batch body is refused; an unknown tool is
// -32602; a resource not found is -32002 with data.uri (2025-11-25) and -32602 with it (2026-07-28); lists are
// paginated with opaque cursors; and one server speaks 2026-07-28 (stateless, server/discover, header checks)
// beside the initialize handshake, over HTTP and over stdio.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { makeTempDir } from '../support/tempDir';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { writeSkill } from '../core/runtime/runtimeSupport';
import { httpClient, MODERN, MODERN_META, modernPost, postJson, rawStdio, serverArgs, sha256, SkillsGetResult, SkillsListResult, startHttpProcess, stdioClient, waitFor, writeFixtureSkills, type Json } from './mcpSupport';
import { z } from 'zod';

const META = MODERN_META;
const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const post = postJson;
const modern = modernPost;

describe('MCP protocol details of agent-skills mcp (both revisions)', function () {
  this.timeout(120_000);
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
    tmp = makeTempDir('mcp-protocol-');
    skills = path.join(tmp.dir, 'skills');
    state = path.join(tmp.dir, 'state');
    writeFixtureSkills(skills);
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close().catch(() => undefined);
    for (const s of stops.splice(0)) await s();
    tmp.cleanup();
  });
  const start = async (extra: string[] = []) => {
    const s = await startHttpProcess(serverArgs(skills, state, ['--http', '127.0.0.1:0', ...extra]));
    stops.push(s.stop);
    return s;
  };

  it('refuses a batch body (a JSON array) whole with 400 and -32600, running none of it, before and inside a session', async () => {
    const { url } = await start();
    const batch = await post(url, [INIT, { jsonrpc: '2.0', id: 2, method: 'tools/list' }]);
    assert.equal(batch.status, 400);
    assert.ok(!Array.isArray(batch.json), 'one error, not one answer per message');
    assert.equal(batch.json?.error?.code, -32600);
    assert.match(batch.json?.error?.message, /batch/);
    assert.equal(batch.headers['mcp-session-id'], undefined, 'the initialize inside the batch opened no session');
    const init = await post(url, INIT);
    const sid = init.headers['mcp-session-id'] as string;
    assert.ok(sid, JSON.stringify(init.json));
    const inSession = await post(url, [{ jsonrpc: '2.0', id: 3, method: 'tools/list' }, { jsonrpc: '2.0', id: 4, method: 'resources/list' }], { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' });
    assert.equal(inSession.status, 400);
    assert.equal(inSession.json?.error?.code, -32600);
    const modernBatch = await post(url, [{ jsonrpc: '2.0', id: 5, method: 'server/discover', params: { _meta: META } }], { 'mcp-protocol-version': MODERN, 'mcp-method': 'server/discover' });
    assert.equal(modernBatch.status, 400);
    assert.equal(modernBatch.json?.error?.code, -32600);
  });

  it('answers an unknown tool with -32602 (a protocol error, not an isError result), on both revisions', async () => {
    const { url } = await start();
    const { client } = await httpClient(url);
    clients.push(client);
    await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }), (e: { code?: number; message?: string }) => e.code === -32602 && /no tool 'no_such_tool'.*load_skills/.test(e.message ?? ''));
    const r = await modern(url, 7, 'tools/call', { name: 'no_such_tool', arguments: {} });
    assert.equal(r.json?.error?.code, -32602, JSON.stringify(r.json));
    assert.equal(r.json?.result, undefined);
  });

  it('answers a resource not found with -32002 and data.uri on 2025-11-25, -32602 and data.uri on 2026-07-28', async () => {
    const { url } = await start();
    const { client } = await httpClient(url);
    clients.push(client);
    for (const uri of ['skill://alpha/references/missing.md', 'skill://nobody/SKILL.md']) {
      await assert.rejects(client.readResource({ uri }), (e: { code?: number; data?: { uri?: string } }) => {
        assert.equal(e.code, -32002);
        assert.deepEqual(e.data, { uri });
        return true;
      });
      const r = await modern(url, 8, 'resources/read', { uri });
      assert.equal(r.json?.error?.code, -32602, JSON.stringify(r.json));
      assert.deepEqual(r.json?.error?.data, { uri });
    }
  });

  it('pages resources/list and skills/list through the SDK stdio client: every item once, opaque cursors, a bad cursor is -32602', async () => {
    // One skill with 1,500 files (past the 512-file limit: its files are resources, it is no skills/list entry)
    // and 150 small skills, so both lists span several pages.
    const files: Record<string, string> = {};
    for (let i = 0; i < 1500; i++) files[`data/f${String(i).padStart(4, '0')}.txt`] = `file ${i}\n`;
    writeSkill(skills, 'bulky', { files });
    for (let i = 0; i < 150; i++) writeSkill(skills, `small-${String(i).padStart(3, '0')}`);
    const { client } = await stdioClient(serverArgs(skills, path.join(tmp.dir, 'state-stdio')));
    clients.push(client);
    const uris: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.listResources(cursor ? { cursor } : {});
      assert.ok(page.resources.length <= 1000, `a page holds ${page.resources.length} resources`);
      uris.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 20);
    assert.equal(cursor, undefined, 'the listing ended');
    assert.ok(pages >= 2, `${pages} pages`);
    assert.equal(new Set(uris).size, uris.length, 'no resource twice');
    assert.equal(uris.filter((u) => u.startsWith('skill://bulky/')).length, 1501, 'every file of the big skill, SKILL.md included');
    assert.ok(uris.includes('skill://small-149/SKILL.md') && uris.includes('skill://alpha/references/guide.md'));

    const names: string[] = [];
    const PagedSkills = SkillsListResult.extend({ nextCursor: z.string().optional(), ttlMs: z.number(), cacheScope: z.string() });
    cursor = undefined;
    pages = 0;
    do {
      const page: z.infer<typeof PagedSkills> = await client.request({ method: 'skills/list', params: cursor ? { cursor } : {} }, PagedSkills);
      names.push(...page.skills.map((s) => s.frontmatter.name as string));
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 20);
    assert.ok(pages >= 2, `${pages} pages`);
    assert.equal(new Set(names).size, names.length, 'no skill twice');
    assert.equal(names.length, 153, 'alpha, beta, gamma and the 150 small skills');
    assert.ok(!names.includes('bulky'), 'a skill past the 512-file limit is not listed');
    await assert.rejects(client.request({ method: 'skills/get', params: { uri: 'skill://bulky/SKILL.md' } }, SkillsGetResult), (e: { code?: number; message?: string }) => e.code === -32602 && /1501 files, more than the 512/.test(e.message ?? ''));

    const first = await client.listResources();
    const badCursors = ['not-a-cursor!', Buffer.from('{"v":1,"l":"resources","o":-5}').toString('base64url'), 'x'.repeat(5000), first.nextCursor!.slice(0, -2)];
    for (const bad of badCursors) {
      await assert.rejects(client.listResources({ cursor: bad }), (e: { code?: number }) => e.code === -32602, bad.slice(0, 40));
    }
    // A cursor of one list is not accepted by another.
    await assert.rejects(client.request({ method: 'skills/list', params: { cursor: first.nextCursor } }, SkillsListResult), (e: { code?: number; message?: string }) => e.code === -32602 && /cursor/.test(e.message ?? ''));
  });

  it('serves 2026-07-28 statelessly over HTTP beside initialize sessions: server/discover, header checks, version errors, removed methods', async () => {
    const { url } = await start();
    const d = await modern(url, 1, 'server/discover');
    assert.equal(d.status, 200, JSON.stringify(d.json));
    assert.equal(d.headers['mcp-session-id'], undefined, 'no session on the modern revision');
    const r = d.json!.result;
    assert.equal(r.resultType, 'complete');
    assert.ok(r.supportedVersions.includes(MODERN) && r.supportedVersions.includes('2025-11-25'), r.supportedVersions.join(', '));
    assert.deepEqual(r.capabilities.extensions, { 'io.modelcontextprotocol/skills': { directoryRead: true } });
    assert.ok(r.capabilities.resources && r.capabilities.tools && r.capabilities.prompts);
    assert.equal(r._meta['io.modelcontextprotocol/serverInfo'].name, 'agent-skills');
    assert.equal(typeof r.ttlMs, 'number');
    assert.match(r.cacheScope, /^(public|private)$/);
    assert.match(r.instructions, /available_skills|skill/);

    const list = await modern(url, 2, 'resources/list');
    assert.equal(list.json?.result.resultType, 'complete');
    assert.equal(typeof list.json?.result.ttlMs, 'number');
    assert.ok(list.json?.result.resources.some((x: Json) => x.uri === 'skill://alpha/SKILL.md'));
    const read = await modern(url, 3, 'resources/read', { uri: 'skill://alpha/references/guide.md' });
    assert.match(read.json?.result.contents[0].text, /Step one/);
    // A tool call acts in a one-shot session: load_skills answers with the instructions, and nothing is kept.
    const load = await modern(url, 4, 'tools/call', { name: 'load_skills', arguments: { names: ['alpha'] } });
    assert.equal(load.json?.result.isError, false, JSON.stringify(load.json));
    assert.match(load.json?.result.content[0].text, /Read references\/guide\.md/);

    // Header checks (-32020, HTTP 400).
    const noVersion = await post(url, { jsonrpc: '2.0', id: 5, method: 'tools/list', params: { _meta: META } }, { 'mcp-method': 'tools/list' });
    assert.equal(noVersion.status, 400);
    assert.equal(noVersion.json?.error?.code, -32020);
    assert.equal(noVersion.json?.id, 5);
    const otherVersion = await modern(url, 6, 'tools/list', {}, { 'mcp-protocol-version': '2025-11-25' });
    assert.equal(otherVersion.status, 400);
    assert.equal(otherVersion.json?.error?.code, -32020);
    const wrongMethod = await modern(url, 7, 'tools/list', {}, { 'mcp-method': 'prompts/list' });
    assert.equal(wrongMethod.json?.error?.code, -32020);
    const wrongName = await modern(url, 8, 'resources/read', { uri: 'skill://alpha/SKILL.md' }, { 'mcp-name': 'skill://beta/SKILL.md' });
    assert.equal(wrongName.json?.error?.code, -32020);
    const encoded = await modern(url, 9, 'resources/read', { uri: 'skill://alpha/SKILL.md' }, { 'mcp-name': `=?base64?${Buffer.from('skill://alpha/SKILL.md').toString('base64')}?=` });
    assert.equal(encoded.json?.result?.contents?.[0]?.uri, 'skill://alpha/SKILL.md', 'a Base64-sentinel Mcp-Name is decoded before the comparison');
    // Version negotiation: an unknown version gets -32022 with the supported list.
    const old = await post(url, { jsonrpc: '2.0', id: 10, method: 'tools/list', params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '1900-01-01' } } }, { 'mcp-protocol-version': '1900-01-01', 'mcp-method': 'tools/list' });
    assert.equal(old.status, 400);
    assert.equal(old.json?.error?.code, -32022);
    assert.equal(old.json?.error?.data?.requested, '1900-01-01');
    assert.ok(old.json?.error?.data?.supported.includes(MODERN));
    // Missing _meta: -32602, HTTP 400.
    const noMeta = await post(url, { jsonrpc: '2.0', id: 11, method: 'tools/list', params: {} }, { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' });
    assert.equal(noMeta.status, 400);
    assert.equal(noMeta.json?.error?.code, -32602);
    // Methods the revision removed: 404 and -32601.
    for (const method of ['initialize', 'ping', 'logging/setLevel']) {
      const gone = await modern(url, 12, method);
      assert.equal(gone.status, 404, method);
      assert.equal(gone.json?.error?.code, -32601, method);
    }
    // The legacy handshake on the same endpoint still opens a session for older clients.
    const { client } = await httpClient(url);
    clients.push(client);
    assert.equal(client.getServerVersion()?.name, 'agent-skills');
    assert.ok((await client.listTools()).tools.some((t) => t.name === 'load_skills'));
  });

  it('gives each skill entry its frontmatter verbatim (typed values kept) and every file with sha256 digest and size', async () => {
    writeSkill(skills, 'typed', { frontmatter: 'license: MIT\nmetadata:\n  version: "2.1"\n  count: 3\n  beta: true', files: { 'notes/a.txt': 'abc' } });
    const { url } = await start();
    const r = await modern(url, 1, 'skills/get', { uri: 'skill://typed/SKILL.md' });
    const skill = r.json?.result?.skill;
    assert.ok(skill, JSON.stringify(r.json));
    assert.deepEqual(skill.frontmatter, { name: 'typed', description: 'Does typed things. Use when the user asks for typed.', license: 'MIT', metadata: { version: '2.1', count: 3, beta: true } });
    const a = skill.resources.find((x: Json) => x.uri === 'skill://typed/notes/a.txt');
    assert.deepEqual(a, { uri: 'skill://typed/notes/a.txt', digest: sha256('abc'), size: 3 });
    const md = skill.resources.find((x: Json) => x.uri === 'skill://typed/SKILL.md');
    assert.equal(md.size, fs.statSync(path.join(skills, 'typed', 'SKILL.md')).size);
    assert.equal(r.json?.result.ttlMs > 0 && r.json?.result.cacheScope, 'private');
  });

  it('lists a nested skill\'s files as files of the enclosing skill (a complete manifest), not as a skill entry of its own', async () => {
    writeSkill(skills, 'outer', { files: { 'inner/SKILL.md': '---\nname: inner\ndescription: Inner skill.\n---\nbody\n' } });
    const { url } = await start();
    const list = await modern(url, 1, 'skills/list');
    const outer = list.json?.result.skills.find((x: Json) => x.frontmatter.name === 'outer');
    assert.ok(outer.resources.some((r: Json) => r.uri === 'skill://outer/inner/SKILL.md'), JSON.stringify(outer));
    assert.ok(!list.json?.result.skills.some((x: Json) => x.frontmatter.name === 'inner'));
  });

  it('leaves a skill past the 16 MiB total out of skills/list and says why on skills/get (its files stay resources)', async () => {
    const nine = Buffer.alloc(9 * 1024 * 1024, 0x61);
    writeSkill(skills, 'heavy', { files: { 'a.bin': nine, 'b.bin': nine } });
    const { url } = await start();
    const list = await modern(url, 1, 'skills/list');
    assert.deepEqual(list.json?.result.skills.map((x: Json) => x.frontmatter.name), ['alpha', 'beta', 'gamma']);
    const get = await modern(url, 2, 'skills/get', { uri: 'skill://heavy/SKILL.md' });
    assert.equal(get.json?.error?.code, -32602);
    assert.match(get.json?.error?.message, /holds \d+ bytes, more than the 16777216/);
    const files = await modern(url, 3, 'resources/list');
    assert.ok(files.json?.result.resources.some((x: Json) => x.uri === 'skill://heavy/a.bin'));
  });

  it('streams the change notifications a 2026-07-28 client asked for on subscriptions/listen (HTTP): acknowledgment first, subscription id on each', async () => {
    const { url } = await start();
    const frames: Json[] = [];
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': 'subscriptions/listen' } });
    let res: http.IncomingMessage | undefined;
    req.on('response', (r) => {
      res = r;
      let buf = '';
      r.on('data', (d: Buffer) => {
        buf += d.toString();
        let end;
        while ((end = buf.indexOf('\n\n')) >= 0) {
          const data = buf.slice(0, end).split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
          buf = buf.slice(end + 2);
          if (data) frames.push(JSON.parse(data) as Json);
        }
      });
    });
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 42, method: 'subscriptions/listen', params: { _meta: META, notifications: { resourcesListChanged: true, toolsListChanged: true, resourceSubscriptions: ['skill://alpha/SKILL.md', 'skill://beta/SKILL.md'] } } }));
    const ack = await waitFor('the acknowledgment', () => frames[0]);
    assert.equal(res?.headers['content-type'], 'text/event-stream');
    assert.equal(ack.method, 'notifications/subscriptions/acknowledged');
    assert.equal(ack.params._meta['io.modelcontextprotocol/subscriptionId'], 42);
    assert.deepEqual(ack.params.notifications, { resourcesListChanged: true, resourceSubscriptions: ['skill://alpha/SKILL.md', 'skill://beta/SKILL.md'] }, 'tools never change here: not acknowledged');
    fs.appendFileSync(path.join(skills, 'alpha', 'SKILL.md'), '\nOne more line.\n');
    const updated = await waitFor('resources/updated for alpha', () => frames.find((f) => f.method === 'notifications/resources/updated'));
    assert.deepEqual(updated.params, { uri: 'skill://alpha/SKILL.md', _meta: { 'io.modelcontextprotocol/subscriptionId': 42 } });
    assert.ok(frames.some((f) => f.method === 'notifications/resources/list_changed' && f.params._meta['io.modelcontextprotocol/subscriptionId'] === 42));
    assert.ok(!frames.some((f) => f.method === 'notifications/prompts/list_changed'), 'not asked for');
    assert.ok(!frames.some((f) => f.params?.uri === 'skill://beta/SKILL.md'), 'beta did not change');
    // Shutdown ends the stream gracefully: the listen request gets its result, tagged like the rest.
    await stops.pop()!();
    const done = await waitFor('the listen result', () => frames.find((f) => f.id === 42));
    assert.deepEqual(done.result, { resultType: 'complete', _meta: { 'io.modelcontextprotocol/subscriptionId': 42 } });
    req.destroy();
  });

  it('bounds subscriptions/listen: at most 1000 URIs per stream, at most --max-sessions streams at once', async () => {
    const { url } = await start(['--max-sessions', '1']);
    const many = Array.from({ length: 1001 }, (_, i) => `skill://alpha/f${i}`);
    const tooMany = await post(url, { jsonrpc: '2.0', id: 1, method: 'subscriptions/listen', params: { _meta: META, notifications: { resourceSubscriptions: many } } }, { 'mcp-protocol-version': MODERN, 'mcp-method': 'subscriptions/listen' });
    assert.equal(tooMany.status, 400);
    assert.equal(tooMany.json?.error?.code, -32602);
    assert.match(tooMany.json?.error?.message, /at most 1000/);
    const first = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': 'subscriptions/listen' } });
    const opened = new Promise<http.IncomingMessage>((resolve) => first.on('response', resolve));
    first.on('error', () => undefined);
    first.end(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'subscriptions/listen', params: { _meta: META, notifications: { resourcesListChanged: true } } }));
    assert.equal((await opened).statusCode, 200);
    const second = await post(url, { jsonrpc: '2.0', id: 3, method: 'subscriptions/listen', params: { _meta: META, notifications: { resourcesListChanged: true } } }, { 'mcp-protocol-version': MODERN, 'mcp-method': 'subscriptions/listen' });
    assert.equal(second.status, 503);
    first.destroy();
  });

  it('serves 2026-07-28 over stdio (server/discover, then per-request _meta) and initialize on the same process', async () => {
    const server = rawStdio(serverArgs(skills, state));
    stops.push(server.stop);
    const { child, send, answer } = server;
    send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } });
    const d = await answer(1);
    assert.ok(d.result.supportedVersions.includes(MODERN), JSON.stringify(d));
    assert.equal(d.result._meta['io.modelcontextprotocol/serverInfo'].name, 'agent-skills');
    send({ jsonrpc: '2.0', id: 2, method: 'skills/list', params: { _meta: META } });
    const l = await answer(2);
    assert.deepEqual(l.result.skills.map((s: Json) => s.uri), ['skill://alpha/SKILL.md', 'skill://beta/SKILL.md', 'skill://gamma/SKILL.md']);
    assert.equal(l.result.resultType, 'complete');
    send({ jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'skill://alpha/nope.md', _meta: META } });
    assert.equal((await answer(3)).error.code, -32602);
    send({ jsonrpc: '2.0', id: 4, method: 'tools/list', params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '1900-01-01' } } });
    assert.equal((await answer(4)).error.code, -32022);
    // A listen stream on the shared channel: acknowledged, then tagged notifications until cancelled.
    send({ jsonrpc: '2.0', id: 7, method: 'subscriptions/listen', params: { _meta: META, notifications: { promptsListChanged: true } } });
    const ack = await waitFor('the acknowledgment', () => server.notifications.find((n) => n.method === 'notifications/subscriptions/acknowledged'));
    assert.equal(ack.params._meta['io.modelcontextprotocol/subscriptionId'], 7);
    writeSkill(skills, 'delta');
    const prompts = await waitFor('prompts/list_changed', () => server.notifications.find((n) => n.method === 'notifications/prompts/list_changed'));
    assert.equal(prompts.params._meta['io.modelcontextprotocol/subscriptionId'], 7);
    assert.ok(!server.notifications.some((n) => n.method === 'notifications/resources/list_changed'), 'not asked for');
    // A legacy client on the same process: initialize, then a request without _meta.
    send({ ...INIT, id: 5 });
    const init = await answer(5);
    assert.equal(init.result.protocolVersion, '2025-11-25', JSON.stringify(init));
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 6, method: 'resources/read', params: { uri: 'skill://alpha/nope.md' } });
    const legacyMiss = await answer(6);
    assert.equal(legacyMiss.error.code, -32002);
    assert.deepEqual(legacyMiss.error.data, { uri: 'skill://alpha/nope.md' });
    // SIGTERM ends the server even while the client still holds its stdin open.
    child.kill('SIGTERM');
    await waitFor('the server to exit on SIGTERM with stdin open', () => (child.exitCode !== null ? child.exitCode : undefined), 10_000);
  });
});
