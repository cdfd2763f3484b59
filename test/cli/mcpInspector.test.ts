// The MCP Inspector's command-line client (`mcpdo`, @modelcontextprotocol/inspector 2.x, run with Node 24): a
// client we did not write, against the real `dist/cli.js mcp` over stdio. It keeps its connections in a daemon;
// `mcpdo private` gives this test a daemon of its own, stopped in `after`.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { makeTempDir } from '../support/tempDir';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { REPO, serverArgs, writeFixtureSkills } from './mcpSupport';

interface InspectorSetup {
  ensureInspector(): { node: string; bin: string };
  inspectorInstalled(): boolean;
  inspectorPaths(): { node: string; bin: string };
}

describe('MCP Inspector CLI (mcpdo) against agent-skills mcp', function () {
  this.timeout(120_000);
  let tmp: { dir: string; cleanup: () => void };
  let paths: { node: string; bin: string };
  let env: NodeJS.ProcessEnv;

  const mcpdo = (...args: string[]) => {
    const r = spawnSync(paths.node, [paths.bin, '--format', 'json', ...args], { encoding: 'utf8', env, timeout: 60_000 });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  const json = (...args: string[]) => {
    const r = mcpdo('--connection', 'ours', ...args);
    assert.equal(r.code, 0, `mcpdo ${args.join(' ')}: ${r.err}${r.out}`);
    return JSON.parse(r.out);
  };

  before(async function () {
    this.timeout(BUILD_TIMEOUT_MS + 600_000);
    await ensureBuilt();
    const setup = (await import(pathToFileURL(path.join(REPO, 'scripts/setup-inspector.mjs')).href)) as InspectorSetup;
    if (!fs.existsSync(setup.inspectorPaths().node)) {
      console.log(`    skipped: Node 24 (${setup.inspectorPaths().node}) is not installed; node scripts/setup-vscode.mjs installs it (npm test does)`);
      this.skip();
    }
    // A failed install fails the suite (issue 22.9: it was a skip, so a broken install went unnoticed). The
    // unprivileged pass finds the Inspector the root pass installed and writes nothing.
    try {
      paths = setup.ensureInspector();
    } catch (e) {
      throw new Error(`the MCP Inspector could not be installed: ${(e as Error).message}. Run node scripts/setup-inspector.mjs as the owner of .cache, with network access.`);
    }
    tmp = makeTempDir('mcp-inspector-');
    writeFixtureSkills(path.join(tmp.dir, 'skills'));
    env = { ...process.env, HOME: tmp.dir, PATH: `${path.dirname(paths.node)}:${process.env.PATH}` };
    const priv = spawnSync(paths.node, [paths.bin, 'private'], { encoding: 'utf8', env });
    for (const m of priv.stdout.matchAll(/^export (MCP_INSPECTOR_[A-Z_]+)='([^']*)'$/gm)) env[m[1]] = m[2];
    assert.ok(env.MCP_INSPECTOR_DAEMON_DIR, `mcpdo private gave no daemon folder: ${priv.stdout}${priv.stderr}`);
    const c = mcpdo('connect', '--connection', 'ours', '--', process.execPath, ...serverArgs(path.join(tmp.dir, 'skills'), path.join(tmp.dir, 'state')));
    assert.equal(c.code, 0, c.err + c.out);
  });
  after(() => {
    if (!env?.MCP_INSPECTOR_DAEMON_DIR) return;
    mcpdo('disconnect', 'ours');
    mcpdo('daemon', 'stop');
    tmp?.cleanup();
  });

  it('lists our tools and skill resources, calls load_skills, and reads skills/list and a skill file', () => {
    const tools = json('tools/list').tools.map((t: { name: string }) => t.name);
    assert.ok(tools.includes('load_skills') && tools.includes('read_skill_file'), tools.join(', '));
    assert.ok(!tools.includes('run_skill_script'), 'no scripts without --allow-scripts');
    const uris = json('resources/list').resources.map((r: { uri: string }) => r.uri);
    assert.ok(uris.includes('skill://alpha/SKILL.md') && uris.includes('skill://alpha/references/guide.md'), uris.join(', '));
    const load = json('tools/call', 'load_skills', 'names:=["alpha"]');
    assert.notEqual(load.isError, true);
    assert.match(load.content[0].text, /Read references\/guide\.md, then run scripts\/echo\.sh/);
    const skills = json('skills/list').skills.map((s: { uri: string }) => s.uri);
    assert.deepEqual(skills, ['skill://alpha/SKILL.md', 'skill://beta/SKILL.md', 'skill://gamma/SKILL.md']);
    const read = json('resources/read', 'skill://alpha/references/guide.md');
    assert.match(read.contents[0].text, /Step one/);
    const escape = mcpdo('--connection', 'ours', 'resources/read', 'skill://alpha/../../etc/passwd');
    assert.doesNotMatch(escape.out, /root:/);
    assert.match(escape.out + escape.err, /dot segment/);
  });
});
