import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createScriptRunner } from '../../src/core/exec';
import { createMemoryHost } from '../../src/core/host';
import { DEFAULT_MCP_TIMEOUTS, McpSkillsClient } from '../../src/core/mcp/mcpSkillsClient';
import { ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { refuseMcpScripts, withMcpSkills } from '../../src/core/mcp/mcpSkillSource';
import { createSkillsRuntime } from '../../src/core/runtime';
import { folderSource, writeSkill } from '../core/runtime/runtimeSupport';
import { guardedExecutor } from '../../src/core/runtime/guardedExecutor';
import { makeTempDir } from '../support/tempDir';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { spawnSync } from 'node:child_process';
import { CLI, REPO, serverArgs, sha256, stdioClient, toolText, waitFor, writeFixtureSkills } from './mcpSupport';

const LYING = path.join(REPO, 'test/fixtures/mcp/lyingSkillsServer.mjs');
const NESTED = path.join(REPO, 'test/fixtures/mcp/nestedSkillsServer.mjs');

describe('MCP skills client (mcp:<server>:<skill>) against our server and an independent fixture server', function () {
  this.timeout(60_000);
  let tmp: { dir: string; cleanup: () => void };
  let local: string;
  let served: string;
  let cache: string;
  const clients: McpSkillsClient[] = [];
  before(function () {
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });
  beforeEach(() => {
    tmp = makeTempDir('mcp-client-');
    local = path.join(tmp.dir, 'local');
    served = path.join(tmp.dir, 'served');
    cache = path.join(tmp.dir, 'state', 'mcp-cache');
    writeFixtureSkills(served);
    writeSkill(local, 'alpha', { body: 'The LOCAL alpha.' });
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
    tmp.cleanup();
  });
  const client = async (config: ConstructorParameters<typeof McpSkillsClient>[0]) => {
    const c = new McpSkillsClient(config, cache);
    clients.push(c);
    await c.connect();
    return c;
  };

  it('lists our server\'s skills namespaced, never shadowing a local one, fetches lazily, verifies, and never runs their scripts', async () => {
    const ours = await client({ name: 'ours', command: process.execPath, args: serverArgs(served, path.join(tmp.dir, 'server-state')) });
    assert.deepEqual(ours.state, { state: 'up', skills: 3 });
    const source = withMcpSkills(folderSource(local), [ours]);
    const names = source.list().map((r) => `${r.id}=${r.name}`);
    assert.ok(names.includes('mcp:ours:alpha=mcp:ours:alpha'), `the served alpha is listed under its id, the local one keeps the name: ${names.join(', ')}`);
    assert.ok(names.includes('mcp:ours:beta=beta'));
    assert.equal(source.resolve('alpha')?.rootDir, path.join(local, 'alpha'), 'the bare name is the local skill');
    assert.ok(!fs.existsSync(path.join(cache, 'ours')), 'nothing fetched before use');

    const runner = createScriptRunner({ stateDir: path.join(tmp.dir, 'state', 'exec'), sandbox: 'off' });
    // The refusal is decided once, by the executor's guard (issue 23.4): every run of a served skill reaches it.
    const guard = refuseMcpScripts(runner, cache);
    let guarded = 0;
    const rt = createSkillsRuntime({ source, executor: guardedExecutor(guard, (req, attempt) => (attempt === 'run' && guarded++, req)) });
    const load = await rt.invoke('load', { names: ['mcp:ours:alpha'] }, { sessionId: 's' });
    assert.ok(load.ok, JSON.stringify(load));
    const cached = fs.readFileSync(path.join(cache, 'ours', 'alpha', 'SKILL.md'));
    assert.equal(sha256(cached), sha256(fs.readFileSync(path.join(served, 'alpha', 'SKILL.md'))), 'the verified bytes are the served ones');
    const read = await rt.invoke('read', { skill: 'mcp:ours:alpha', path: 'references/guide.md' }, { sessionId: 's' });
    assert.ok(read.ok, JSON.stringify(read));
    assert.match(JSON.stringify(read.result), /Step one/);
    const run = await rt.invoke('run_script', { skill: 'mcp:ours:alpha', script: 'scripts/echo.sh' }, { sessionId: 's' });
    assert.equal(run.ok, false);
    const refusal = "Skill mcp:ours:alpha is served by MCP server 'ours': MCP-served skills are instructions only, and their scripts are never run on this machine.";
    assert.ok(!run.ok && run.error.code === 'run_refused' && run.error.message === refusal, JSON.stringify(run));
    const direct = await rt.runScript({ skill: 'mcp:ours:alpha', script: 'scripts/echo.sh' });
    assert.ok(!direct.ok && direct.error.code === 'run_refused' && direct.error.message === refusal, `the user-run path refuses in the same words: ${JSON.stringify(direct)}`);
    assert.equal(guarded, 2, 'both refusals were the guard\'s: nothing refused the run before it');
    const staged = { skillRoot: path.join(cache, 'ours', 'alpha'), script: 'scripts/echo.sh', args: [] } as unknown as Parameters<typeof runner.run>[0];
    await assert.rejects(guard.run(staged), (e: Error) => e.message === refusal);
    // A local skill with the same name still runs.
    writeSkill(local, 'runner', { files: { 'scripts/hi.sh': 'echo hi\n' } });
    const localRun = await rt.runScript({ skill: 'runner', script: 'scripts/hi.sh' });
    assert.ok(localRun.ok && (localRun.result as { stdout: string }).stdout === 'hi\n', JSON.stringify(localRun));
  });

  it('writes its verified copies through the core\'s host: a runtime over an in-memory host loads and reads a served skill, and nothing reaches the disk', async () => {
    const host = createMemoryHost();
    const memCache = path.join(tmp.dir, 'never-on-disk', 'mcp-cache');
    const ours = new McpSkillsClient({ name: 'ours', command: process.execPath, args: serverArgs(served, path.join(tmp.dir, 'server-state')) }, memCache, host);
    clients.push(ours);
    await ours.connect();
    const rt = createSkillsRuntime({ source: withMcpSkills(folderSource(local), [ours]), files: host });
    const load = await rt.invoke('load', { names: ['mcp:ours:beta'] }, { sessionId: 's' });
    assert.ok(load.ok, JSON.stringify(load));
    const copy = host.readFile(path.join(memCache, 'ours', 'beta', 'SKILL.md'));
    assert.ok(copy, 'the verified copy is in the host');
    assert.equal(sha256(Buffer.from(copy.bytes)), sha256(fs.readFileSync(path.join(served, 'beta', 'SKILL.md'))), 'the verified bytes are the served ones');
    assert.equal(fs.existsSync(path.join(tmp.dir, 'never-on-disk')), false, 'nothing of the copy reached the disk');
  });

  it('refuses and reports a skill whose content does not match the advertised digest or size (SDK fixture server)', async () => {
    const lying = await client({ name: 'lying', command: process.execPath, args: [LYING] });
    assert.equal(lying.state.state, 'up');
    const rt = createSkillsRuntime({ source: withMcpSkills(folderSource(local), [lying]) });
    const honest = await rt.invoke('load', { names: ['honest'] }, { sessionId: 's' });
    assert.ok(honest.ok, JSON.stringify(honest));
    const bad = await rt.invoke('load', { names: ['wrongdigest'] }, { sessionId: 's' });
    assert.ok(!bad.ok && bad.error.code === 'skill_unusable', JSON.stringify(bad));
    assert.match(bad.error.message, /skill:\/\/wrongdigest\/SKILL\.md has digest sha256:[0-9a-f]{64}, not the advertised/);
    const size = await rt.invoke('load', { names: ['wrongsize'] }, { sessionId: 's' });
    assert.ok(!size.ok && /was advertised as/.test(size.error.message), JSON.stringify(size));
    assert.ok(!fs.existsSync(path.join(cache, 'lying', 'wrongdigest')), 'nothing unverified is written');
    assert.deepEqual(lying.problems.map((p) => p.skill), ['wrongdigest', 'wrongsize']);
  });

  it('does not activate a nested skill published as its own entry (its activation needs consent this host does not ask); its files stay files of the enclosing skill (SDK fixture server)', async () => {
    const nested = await client({ name: 'nested', command: process.execPath, args: [NESTED] });
    assert.equal(nested.state.state, 'up');
    assert.deepEqual(nested.list().map((s) => s.id), ['mcp:nested:outer']);
    assert.equal(nested.problems.length, 1, JSON.stringify(nested.problems));
    assert.match(nested.problems[0].message, /skill:\/\/outer\/inner\/SKILL\.md .*nested in another \('outer'\).*consent/);
    const rt = createSkillsRuntime({ source: withMcpSkills(folderSource(local), [nested]) });
    const inner = await rt.invoke('load', { names: ['inner'] }, { sessionId: 's' });
    assert.ok(!inner.ok, `the nested skill is not loadable: ${JSON.stringify(inner)}`);
    const outer = await rt.invoke('load', { names: ['outer'] }, { sessionId: 's' });
    assert.ok(outer.ok, JSON.stringify(outer));
    const read = await rt.invoke('read', { skill: 'mcp:nested:outer', path: 'inner/SKILL.md' }, { sessionId: 's' });
    assert.ok(read.ok, JSON.stringify(read));
    assert.match(JSON.stringify(read), /Run anything/, 'the nested SKILL.md is read as a supporting file of outer');
  });

  it('shows a server that is down and keeps the other skills working', async () => {
    const down = await client({ name: 'down', command: process.execPath, args: ['-e', 'process.exit(3)'] });
    assert.equal(down.state.state, 'down');
    assert.match((down.state as { reason: string }).reason, /MCP server 'down' is not reachable/);
    const rt = createSkillsRuntime({ source: withMcpSkills(folderSource(local), [down]) });
    const r = await rt.invoke('load', { names: ['alpha'] }, { sessionId: 's' });
    assert.ok(r.ok, JSON.stringify(r));
  });

  it('agent-skills list --mcp-server shows each server\'s skills and a server that is down (exit 1)', () => {
    const ours = `ours=${process.execPath} ${serverArgs(served, path.join(tmp.dir, 'server-state')).join(' ')}`;
    const r = spawnSync(process.execPath, [CLI, 'list', '--no-defaults', '--root', local, '--state-dir', path.join(tmp.dir, 'state'), '--mcp-server', ours, '--mcp-server', 'gone=http://127.0.0.1:9/mcp'], { encoding: 'utf8' });
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stdout, /ours: up, 3 skill\(s\)/);
    assert.match(r.stdout, /mcp:ours:beta {2}skill:\/\/beta\/SKILL\.md/);
    assert.match(r.stdout, /gone: down: MCP server 'gone' is not reachable/);
    assert.match(r.stdout, /workspace:alpha/, 'the local skills are listed as always');
  });

  it('agent-skills mcp --mcp-server offers another server\'s skills through load_skills (our client inside our server)', async function () {
    // The outer server settles the inner one within its connect budget, whatever the load (at load 25 a server over
    // these skills took 17 to 24 s to start); this test's deadline is that budget and the two starts around it.
    const settleMs = DEFAULT_MCP_TIMEOUTS.connectMs + 10_000;
    this.timeout(settleMs + 120_000);
    const inner = `inner=${process.execPath} ${serverArgs(served, path.join(tmp.dir, 'inner-state')).join(' ')}`;
    const { client, stderr } = await stdioClient(serverArgs(local, path.join(tmp.dir, 'outer-state'), ['--mcp-server', inner]));
    try {
      // The inner server connects in the background (our initialize does not wait for it). It settles one way or the
      // other: up, its skills join and the session hears list_changed; down, the outer server says why on stderr.
      let changed = false;
      client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void (changed = true));
      const listing = async () => toolText(await client.callTool({ name: 'list_skills', arguments: {} }));
      if (!/mcp:inner:/.test(await listing())) await waitFor('the inner server to settle (list_changed, or a reason on stderr)', () => (changed || /MCP server 'inner'/.test(stderr()) ? true : undefined), settleMs);
      assert.doesNotMatch(stderr(), /MCP server 'inner'/, 'the inner server is up');
      const list = await listing();
      assert.match(list, /<name>mcp:inner:alpha<\/name>/, 'the served alpha never shadows the local one');
      assert.match(list, /<name>beta<\/name>/);
      const load = await client.callTool({ name: 'load_skills', arguments: { names: ['beta'] } });
      assert.equal(load.isError, false, toolText(load));
      assert.match(toolText(load), /Review \$0 in mode \$1/);
    } finally {
      await client.close();
    }
  });
});
