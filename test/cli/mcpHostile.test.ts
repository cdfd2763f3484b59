// The MCP skills client against hostile servers, each a real process (stdio, or Streamable HTTP on 127.0.0.1):
// a 400 MB skills/list, a resource advertised as 5 bytes that reads back 400 MB, a server that never answers, one
// that answers all but one request, one that trickles a byte at a time. Each is refused while it streams (the bytes
// read, and the bytes the server managed to hand over, stay near the one-message limit, far from 400 MB), or
// abandoned at its deadline with an error naming the server, the request and the time. And our own server
// (`agent-skills mcp`) answers initialize while another configured server has not answered its own yet.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { MAX_MESSAGE_BYTES, McpSkillsClient, type McpTimeouts } from '../../src/core/mcp/mcpSkillsClient';
import type { McpLaunch } from '../../src/core/mcp/mcpLaunch';
import { makeTempDir } from '../support/tempDir';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { REPO, serverArgs, startHttpProcess, stdioClient, toolText, waitFor } from './mcpSupport';
import { writeSkill } from '../core/runtime/runtimeSupport';

const HOSTILE = path.join(REPO, 'test/fixtures/mcp/hostileSkillsServer.mjs');
const MIB = 1024 * 1024;
/** What a refused message may let in past the limit: one pipe chunk on stdio, one body piece over HTTP. */
const STDIO_SLACK = MIB;
const HTTP_READ_SLACK = MIB;
/**
 * What an HTTP server may hand over past what the client read: the kernel's socket buffers on both ends (their
 * maxima, from /proc; the receive buffer grows on its own up to its maximum, 32 MiB here, by how fast the client
 * read, so how much of it fills depends on timing) and the server's one 1 MiB chunk in flight. Once 44 MiB were
 * handed over for a 23 MiB limit under load, while the client had read no more than its limit.
 */
const HTTP_SLACK = socketBufferMax('tcp_rmem') + socketBufferMax('tcp_wmem') + 2 * MIB;

/** The largest size the kernel lets a TCP buffer grow to (the third number of net.ipv4.tcp_rmem or tcp_wmem). */
function socketBufferMax(name: 'tcp_rmem' | 'tcp_wmem'): number {
  const file = `/proc/sys/net/ipv4/${name}`;
  const max = fs.existsSync(file) ? Number(fs.readFileSync(file, 'utf8').trim().split(/\s+/)[2]) : NaN;
  return Number.isFinite(max) && max > 0 ? max : 32 * MIB;
}
// Short request deadlines keep the suite quick; a stdio server's start keeps its default (DEFAULT_MCP_TIMEOUTS.startMs:
// a loaded machine may take tens of seconds to start node), except where the start itself is under test (MUTE_START).
const FAST = { requestMs: 3000, connectMs: 60_000, fetchSkillMs: 10_000 };
const MUTE_START = { ...FAST, startMs: 3000 };

describe('MCP skills client against hostile servers (stdio and HTTP on loopback)', function () {
  this.timeout(60_000);
  let tmp: { dir: string; cleanup: () => void };
  const clients: McpSkillsClient[] = [];
  const stops: (() => Promise<void>)[] = [];
  beforeEach(() => {
    tmp = makeTempDir('mcp-hostile-');
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
    for (const s of stops.splice(0)) await s();
    tmp.cleanup();
  });
  const report = (name = 'written') => path.join(tmp.dir, name);
  const written = (name?: string) => (fs.existsSync(report(name)) ? Number(fs.readFileSync(report(name), 'utf8')) : 0);
  const stdio = (name: string, mode: string): McpLaunch => ({ name, command: process.execPath, args: [HOSTILE, mode, '--report', report()] });
  const overHttp = async (name: string, mode: string, reportName?: string): Promise<McpLaunch> => {
    const p = await startHttpProcess([HOSTILE, mode, '--report', report(reportName), '--http']);
    stops.push(p.stop);
    return { name, url: p.url.href };
  };
  const connect = async (config: McpLaunch, timeouts: Partial<McpTimeouts> = {}) => {
    const c = new McpSkillsClient(config, path.join(tmp.dir, 'cache'), undefined, timeouts);
    clients.push(c);
    await c.connect();
    return c;
  };
  const reason = (c: McpSkillsClient) => ('reason' in c.state ? c.state.reason : `state ${c.state.state}`);

  it('stdio: a 400 MB skills/list is refused while it streams, after about one message limit of bytes', async () => {
    const c = await connect(stdio('huge', 'huge-list'));
    assert.equal(c.state.state, 'down');
    assert.match(reason(c), new RegExp(`MCP server 'huge' sent a message of more than ${MAX_MESSAGE_BYTES} bytes`));
    assert.ok(c.bytesRead! <= MAX_MESSAGE_BYTES + STDIO_SLACK, `read ${c.bytesRead} bytes, limit ${MAX_MESSAGE_BYTES}`);
    assert.ok(written() > MAX_MESSAGE_BYTES - 2 * MIB && written() <= MAX_MESSAGE_BYTES + 4 * MIB, `the server handed over ${written()} bytes`);
  });

  it('stdio: a resource advertised as 5 bytes that reads back 400 MB is refused while it streams', async () => {
    const c = await connect(stdio('liar', 'huge-resource'));
    assert.equal(c.state.state, 'up', reason(c));
    await assert.rejects(c.fetchSkill('gated'), new RegExp(`MCP server 'liar' sent a message of more than ${MAX_MESSAGE_BYTES} bytes`));
    assert.ok(c.bytesRead! <= MAX_MESSAGE_BYTES + STDIO_SLACK, `read ${c.bytesRead} bytes`);
    assert.ok(written() > MAX_MESSAGE_BYTES - 2 * MIB && written() <= MAX_MESSAGE_BYTES + 4 * MIB, `the server handed over ${written()} bytes`);
    assert.ok(!fs.existsSync(path.join(tmp.dir, 'cache', 'liar', 'gated')), 'nothing of it was kept');
  });

  it('stdio: a server that never answers is taken for legacy when the probe times out, and abandoned at the initialize deadline, naming the server', async () => {
    const c = await connect(stdio('mute', 'silent'), MUTE_START);
    assert.equal(c.state.state, 'down');
    assert.match(reason(c), /MCP server 'mute' did not answer server\/discover within 3 s of its start, nor initialize within 3 s after that/);
  });

  it('stdio: a server that never answers skills/list, or trickles it a byte at a time, is abandoned at the request deadline', async () => {
    const mute = await connect(stdio('mutelist', 'silent-list'), FAST);
    assert.match(reason(mute), /MCP server 'mutelist' did not answer skills\/list within 3 s/);
    const slow = await connect(stdio('slow', 'trickle'), FAST);
    assert.equal(slow.state.state, 'down');
    assert.match(reason(slow), /MCP server 'slow' did not answer skills\/list within 3 s/);
    assert.ok(slow.bytesRead! < 64 * 1024, `read ${slow.bytesRead} bytes`);
  });

  it('stdio: a resource that never comes fails the load at its deadline, naming the server and the resource', async () => {
    const c = await connect(stdio('stall', 'silent-read'), FAST);
    assert.equal(c.state.state, 'up', reason(c));
    await assert.rejects(c.fetchSkill('gated'), /MCP server 'stall' did not answer resources\/read skill:\/\/gated\/SKILL\.md .* within 3 s/);
  });

  it('HTTP: a 400 MB skills/list and a 400 MB resource advertised as 5 bytes are refused while they stream', async () => {
    const c = await connect(await overHttp('hugeweb', 'huge-list'));
    assert.equal(c.state.state, 'down');
    assert.match(reason(c), new RegExp(`MCP server 'hugeweb' sent a response of more than ${MAX_MESSAGE_BYTES} bytes`));
    // What the client read is the bound under test; what the server handed over also fills the socket buffers.
    assert.ok(c.bytesRead! > MAX_MESSAGE_BYTES && c.bytesRead! <= MAX_MESSAGE_BYTES + HTTP_READ_SLACK, `read ${c.bytesRead} bytes, limit ${MAX_MESSAGE_BYTES}`);
    assert.ok(written() > MAX_MESSAGE_BYTES - 2 * MIB && written() <= MAX_MESSAGE_BYTES + HTTP_SLACK, `the server handed over ${written()} bytes`);
    // Its own report file: the first server may still be counting while the second streams.
    const liar = await connect(await overHttp('liarweb', 'huge-resource', 'written-liar'));
    assert.equal(liar.state.state, 'up', reason(liar));
    const before = liar.bytesRead!;
    await assert.rejects(liar.fetchSkill('gated'), new RegExp(`MCP server 'liarweb' sent a response of more than ${MAX_MESSAGE_BYTES} bytes`));
    assert.ok(liar.bytesRead! - before > MAX_MESSAGE_BYTES && liar.bytesRead! - before <= MAX_MESSAGE_BYTES + HTTP_READ_SLACK, `read ${liar.bytesRead! - before} bytes`);
    assert.ok(written('written-liar') > MAX_MESSAGE_BYTES - 2 * MIB && written('written-liar') <= MAX_MESSAGE_BYTES + HTTP_SLACK, `the server handed over ${written('written-liar')} bytes`);
  });

  it('HTTP: a server that never answers, or trickles, is abandoned at its deadline, naming the server', async () => {
    const mute = await connect(await overHttp('muteweb', 'silent'), FAST);
    assert.match(reason(mute), /MCP server 'muteweb' did not answer server\/discover or initialize within 3 s/);
    const slow = await connect(await overHttp('slowweb', 'trickle'), FAST);
    assert.match(reason(slow), /MCP server 'slowweb' did not answer skills\/list within 3 s/);
  });

  it('agent-skills mcp answers initialize while another configured server has not answered yet; its skills join later, with list_changed', async function () {
    this.timeout(BUILD_TIMEOUT_MS);
    ensureBuilt();
    const local = path.join(tmp.dir, 'local');
    writeSkill(local, 'alpha', { body: 'The local alpha.' });
    const gate = path.join(tmp.dir, 'gate');
    const { client } = await stdioClient(serverArgs(local, path.join(tmp.dir, 'state'), ['--mcp-server', `late=${process.execPath} ${HOSTILE} honest --gate ${gate}`]));
    try {
      // Connected: our initialize was answered while 'late' cannot have answered its own (its gate is closed).
      assert.equal(fs.existsSync(gate), false);
      let changed = 0;
      client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void changed++);
      const before = toolText(await client.callTool({ name: 'list_skills', arguments: {} }));
      assert.match(before, /<name>alpha<\/name>/);
      assert.doesNotMatch(before, /gated/, 'the late server has not answered, so it has no skills yet');
      fs.writeFileSync(gate, '');
      await waitFor('the late server\'s list_changed', () => (changed > 0 ? true : undefined));
      const after = toolText(await client.callTool({ name: 'list_skills', arguments: {} }));
      assert.match(after, /<name>gated<\/name>/);
      const load = await client.callTool({ name: 'load_skills', arguments: { names: ['gated'] } });
      assert.equal(load.isError, false, toolText(load));
      assert.match(toolText(load), /Follow these steps/);
    } finally {
      await client.close();
    }
  });
});
