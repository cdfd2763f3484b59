// The 2026-07-28 server side on the SDK (issue 26 point 1): one long-lived SDK 2.4.0 `Server`, pinned to that
// revision by the SDK's serveStdio over an in-process wire (modernSdkEngine.ts), answering every request that passes
// our checks. It is what `agent-skills mcp` answers with over stdio and HTTP; our own encoder is kept only for this
// comparison (`modernServer(…, { sdk: false })`, AGENT_SKILLS_MCP_MODERN_SERVER=ours). In process, over a real
// backend on real skill folders: the SDK's answers against our encoder's, many clients with the same request ids at
// once on the one instance, and a client that goes away (its request cancelled inside the SDK's Server).
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { createMcpBackend, type McpBackend } from '../../src/cli/mcp/mcpBackend';
import { mcpHandlers, type McpHandler } from '../../src/cli/mcp/mcpHandlers';
import { dispatchModern, modernServer, type ModernServer } from '../../src/cli/mcp/modernDispatch';
import { makeTempDir } from '../support/tempDir';
import { MODERN_META, modernPost, rawStdio, serverArgs, startHttpProcess, writeFixtureSkills, type Json } from './mcpSupport';

const HANDLE = /ash_[A-Za-z0-9_-]{43}/g;

describe('MCP 2026-07-28 on the SDK\'s own Server (in process)', function () {
  this.timeout(60_000);
  let tmp: { dir: string; cleanup: () => void };
  let backend: McpBackend;
  const servers: ModernServer[] = [];
  const serve = (s: ModernServer, id: string | number, method: string, params: Json = {}, signal?: AbortSignal) =>
    dispatchModern(s, { jsonrpc: '2.0', id, method, params: { ...params, _meta: MODERN_META } }, undefined, signal);

  beforeEach(async () => {
    tmp = makeTempDir('mcp-modern-sdk-');
    const skills = path.join(tmp.dir, 'skills');
    writeFixtureSkills(skills);
    backend = await createMcpBackend({ roots: [{ path: skills, scope: 'workspace' }], stateDir: path.join(tmp.dir, 'state'), surface: 'standard', allowScripts: false, readOnly: false, watch: false });
  });
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.close();
    await backend.close();
    tmp.cleanup();
  });

  it('answers each request as our own encoder did (results, errors and codes), with serverInfo and resultType stamped by the SDK', async () => {
    const sdk = modernServer(backend, mcpHandlers(backend), { sdk: true });
    const ours = modernServer(backend, mcpHandlers(backend), { sdk: false });
    servers.push(sdk);
    assert.ok(sdk.sdk && !ours.sdk);
    const requests: Array<[string, Json]> = [
      ['server/discover', {}],
      ['tools/list', {}],
      ['resources/list', {}],
      ['resources/templates/list', {}],
      ['resources/read', { uri: 'skill://alpha/references/guide.md' }],
      ['resources/read', { uri: 'skill://alpha/nope.md' }],
      ['skills/list', {}],
      ['skills/get', { uri: 'skill://alpha/SKILL.md' }],
      ['resources/directory/read', { uri: 'skill://alpha/' }],
      ['prompts/list', {}],
      ['tools/call', { name: 'load_skills', arguments: { names: ['alpha'] } }],
      ['tools/call', { name: 'no_such_tool', arguments: {} }],
      ['tools/call', { name: 'load_skills', arguments: { names: 'alpha' } }],
      ['tools/call', { name: 'load_skills', arguments: { names: ['alpha'], session: 'ash_not-a-handle-of-this-server' } }],
    ];
    let id = 1;
    for (const [method, params] of requests) {
      const a = await serve(sdk, id, method, params);
      const b = await serve(ours, id++, method, params);
      const label = `${method} ${JSON.stringify(params)}`;
      assert.equal(a.status, b.status, label);
      // A copy: the SDK stamps its serverInfo object itself (by reference) into every result.
      const body = JSON.parse(JSON.stringify(a.body).replace(HANDLE, 'ash_H')) as Json;
      // The SDK stamps the whole serverInfo (with its title); ours stamped name and version. Everything else is the same.
      if (body.result) {
        assert.equal(body.result._meta['io.modelcontextprotocol/serverInfo'].title, 'Agent Skills Runtime', label);
        delete body.result._meta['io.modelcontextprotocol/serverInfo'].title;
        assert.equal(body.result.resultType, 'complete', label);
      }
      assert.deepEqual(body, JSON.parse(JSON.stringify(b.body).replace(HANDLE, 'ash_H')), label);
    }
  });

  it('is what agent-skills mcp answers 2026-07-28 with by default, over stdio and HTTP (our encoder only with AGENT_SKILLS_MCP_MODERN_SERVER=ours)', async () => {
    const skills = path.join(tmp.dir, 'skills');
    // The SDK stamps the whole serverInfo, title included, into every result's _meta; our encoder stamped name and version.
    const title = (r: Json | undefined) => r?.result?._meta?.['io.modelcontextprotocol/serverInfo']?.title as unknown;
    for (const [env, want] of [['', 'Agent Skills Runtime'], ['ours', undefined]] as const) {
      const stdio = rawStdio(serverArgs(skills, path.join(tmp.dir, `stdio-${env}`)), { AGENT_SKILLS_MCP_MODERN_SERVER: env });
      const http = await startHttpProcess(serverArgs(skills, path.join(tmp.dir, `http-${env}`), ['--http', '127.0.0.1:0']), { AGENT_SKILLS_MCP_MODERN_SERVER: env });
      try {
        const overStdio = await stdio.request('tools/call', { name: 'load_skills', arguments: { names: ['alpha'] } });
        assert.equal(title(overStdio), want, `stdio, AGENT_SKILLS_MCP_MODERN_SERVER='${env}': ${JSON.stringify(overStdio).slice(0, 300)}`);
        const overHttp = await modernPost(http.url, 1, 'resources/read', { uri: 'skill://alpha/SKILL.md' });
        assert.equal(title(overHttp.json), want, `HTTP, AGENT_SKILLS_MCP_MODERN_SERVER='${env}': ${JSON.stringify(overHttp.json).slice(0, 300)}`);
      } finally {
        await stdio.stop();
        await http.stop();
      }
    }
  });

  it('serves many clients at once on the one instance: the same request id from each gets its own answer', async () => {
    const s = modernServer(backend, mcpHandlers(backend), { sdk: true });
    servers.push(s);
    const uris = ['skill://alpha/SKILL.md', 'skill://alpha/references/guide.md', 'skill://beta/SKILL.md', 'skill://gamma/SKILL.md'];
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? serve(s, 7, 'resources/read', { uri: uris[i % uris.length] }) : serve(s, 7, 'tools/call', { name: 'load_skills', arguments: { names: [i % 4 ? 'beta' : 'alpha'] } }))),
    );
    answers.forEach((a, i) => {
      const body = a.body as Json;
      assert.equal(body.id, 7, `answer ${i} keeps the client's id`);
      if (i % 2) assert.equal(body.result?.contents?.[0]?.uri, uris[i % uris.length], `answer ${i}: ${JSON.stringify(body).slice(0, 200)}`);
      else assert.match(body.result?.content?.[0]?.text ?? '', i % 4 ? /beta/i : /Alpha/, `answer ${i}: ${JSON.stringify(body).slice(0, 200)}`);
    });
  });

  it('cancels a request inside the SDK\'s Server when its client goes away, and keeps serving the others', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let sawAbort!: () => void;
    const aborted = new Promise<void>((resolve) => (sawAbort = resolve));
    // A handler that waits until its request is cancelled (what a script run does when its client leaves).
    const waits: McpHandler = {
      method: 'prompts/list',
      schema: mcpHandlers(backend).find((h) => h.method === 'prompts/list')!.schema,
      cacheable: true,
      handle: (_req, ctx) =>
        new Promise((resolve) => {
          started();
          ctx.signal?.addEventListener('abort', () => {
            sawAbort();
            resolve({ prompts: [] });
          });
        }),
    };
    const s = modernServer(backend, [...mcpHandlers(backend).filter((h) => h.method !== 'prompts/list'), waits], { sdk: true });
    servers.push(s);
    const gone = new AbortController();
    const pending = serve(s, 1, 'prompts/list', {}, gone.signal);
    await running;
    gone.abort();
    const answer = (await pending).body as Json;
    assert.equal(answer.error?.code, -32800, JSON.stringify(answer));
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("the handler's signal was not aborted within 10 s")), 10_000)));
    await Promise.race([aborted, deadline]).finally(() => clearTimeout(timer));
    const next = (await serve(s, 2, 'tools/list')).body as Json;
    assert.ok(next.result?.tools?.some((t: Json) => t.name === 'load_skills'), JSON.stringify(next));
  });
});
