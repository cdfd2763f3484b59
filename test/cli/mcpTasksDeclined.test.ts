// Issue 26: the tasks extension (io.modelcontextprotocol/tasks, SEP-2663) is an extension of 2026-07-28 that this
// server declines (README, "Protocol revisions"). Declining must be visible and harmless on the wire: server/discover
// does not list it, a client that declares it on its request still gets a plain result (the extension forbids a task
// to a client that did not negotiate it, and we never negotiate it), and its methods are not served.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { makeTempDir } from '../support/tempDir';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { MODERN, postJson, serverArgs, startHttpProcess, writeFixtureSkills, type Json } from './mcpSupport';

const TASKS = 'io.modelcontextprotocol/tasks';

describe('MCP 2026-07-28: the tasks extension is declined, visibly and harmlessly', function () {
  this.timeout(60_000);
  let tmp: { dir: string; cleanup: () => void };
  let stop: (() => Promise<void>) | undefined;
  before(function () {
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });
  beforeEach(() => {
    tmp = makeTempDir('mcp-tasks-');
    writeFixtureSkills(path.join(tmp.dir, 'skills'));
  });
  afterEach(async () => {
    await stop?.();
    tmp.cleanup();
  });

  it('server/discover lists only the skills extension; a client declaring tasks gets complete results; tasks/get, tasks/update and tasks/cancel are not served', async () => {
    const s = await startHttpProcess(serverArgs(path.join(tmp.dir, 'skills'), path.join(tmp.dir, 'state'), ['--http', '127.0.0.1:0']));
    stop = s.stop;
    const meta = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} } }, 'io.modelcontextprotocol/clientInfo': { name: 'tasks-client', version: '1' } };
    let id = 0;
    const post = (method: string, params: Json = {}, name?: string) => postJson(s.url, { jsonrpc: '2.0', id: ++id, method, params: { ...params, _meta: meta } }, { 'mcp-protocol-version': MODERN, 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) });
    const discover = await post('server/discover');
    const extensions = discover.json?.result?.capabilities?.extensions as Json;
    assert.deepEqual(Object.keys(extensions ?? {}), ['io.modelcontextprotocol/skills'], JSON.stringify(discover.json));
    const call = await post('tools/call', { name: 'list_skills', arguments: {} }, 'list_skills');
    assert.equal(call.json?.result?.resultType, 'complete', JSON.stringify(call.json));
    assert.ok(Array.isArray(call.json?.result?.content) && !('taskId' in call.json.result));
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const r = await post(method, { taskId: 'x' });
      assert.equal(r.json?.error?.code, -32601, `${method}: ${JSON.stringify(r.json)}`);
      assert.match(r.json.error.message, new RegExp(`${method}.*not served here`));
    }
  });
});
