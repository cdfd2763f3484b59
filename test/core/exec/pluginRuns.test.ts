// Scripts of Agent Plugin skills get their plugin (Agent Plugins 1.0 §9.1; issue 13 point 1): PLUGIN_ROOT and
// PLUGIN_DATA through the run_script tool, for a plugin folder outside any workspace, with the data folder made
// before the run and kept, Claude Code's names for a Claude plugin, and attacks: a call's env cannot point the
// variables elsewhere, and in the sandbox the plugin folder is read-only and another plugin's data is not there.
// In the unprivileged pass of npm test too (test/core/exec).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createAgentSkills, type AgentSkills } from '../../../src/core/agentSkills';
import type { SandboxPolicy } from '../../../src/core/exec';
import { pluginDataDir, pluginSkillRoots, PLUGIN_SCHEMA_1_0, readPlugins } from '../../../src/core/plugins';
import { removeTempDir } from '../../support/tempDir';
import { sandboxWorks, setup } from './helpers';

const SCRIPT = [
  '#!/bin/sh',
  'echo "root=$PLUGIN_ROOT"',
  'echo "data=$PLUGIN_DATA"',
  'echo "claude_root=${CLAUDE_PLUGIN_ROOT:-unset}"',
  'echo "claude_skill=${CLAUDE_SKILL_DIR:-unset}"',
  'echo "kept=$(cat "$PLUGIN_DATA/counter" 2>/dev/null || echo none)"',
  'echo "run" > "$PLUGIN_DATA/counter" && echo "wrote=0" || echo "wrote=1"',
  'touch "$PLUGIN_ROOT/pwned" 2>/dev/null; echo "rootwrite=$?"',
  'ls "$PLUGIN_DATA/../other" >/dev/null 2>&1; echo "other=$?"',
  '',
].join('\n');

function writePlugin(base: string, dir: string, name: string, layout: 'standard' | 'claude'): string {
  const root = path.join(base, dir);
  const manifest = layout === 'standard' ? path.join(root, 'plugin.json') : path.join(root, '.claude-plugin', 'plugin.json');
  fs.mkdirSync(path.dirname(manifest), { recursive: true });
  fs.writeFileSync(manifest, JSON.stringify(layout === 'standard' ? { $schema: PLUGIN_SCHEMA_1_0, name, version: '1.0.0' } : { name, version: '2.0.0' }));
  const skill = path.join(root, 'skills', `${name}-tool`);
  fs.mkdirSync(path.join(skill, 'scripts'), { recursive: true });
  fs.writeFileSync(path.join(skill, 'SKILL.md'), `---\nname: ${name}-tool\ndescription: Use ${name}-tool when the task needs the ${name} plugin's script.\n---\n# ${name}\nRun scripts/show.sh.\n`);
  fs.writeFileSync(path.join(skill, 'scripts', 'show.sh'), SCRIPT, { mode: 0o755 });
  return root;
}

const field = (out: string, key: string) => new RegExp(`^${key}=(.*)$`, 'm').exec(out)?.[1];

describe('core/exec: runs of Agent Plugin skills get PLUGIN_ROOT and PLUGIN_DATA (§9.1)', function () {
  this.timeout(60_000);
  let base: string;
  let core: AgentSkills;
  let standard: string;
  let claude: string;
  const open = (sandbox: SandboxPolicy) => {
    const plugins = readPlugins([standard, claude, path.join(base, 'not-a-plugin')]);
    core = createAgentSkills({ roots: pluginSkillRoots(plugins), stateDir: path.join(base, 'state'), runner: { sandbox } });
    return plugins;
  };
  const run = async (skill: string, env?: Record<string, string>) => {
    await core.refresh();
    const sessionId = `s-${skill}`;
    const loaded = await core.tools().invoke('load', { names: [skill] }, { sessionId });
    assert.ok(loaded.ok, JSON.stringify(loaded));
    const r = await core.tools().invoke('run_script', { skill, script: 'scripts/show.sh', ...(env ? { env } : {}) }, { sessionId });
    assert.ok(r.ok, JSON.stringify(r));
    return r.result as { stdout: string; stderr: string; exit_code: number; sandboxed: boolean };
  };

  beforeEach(() => {
    // Outside any workspace: a folder of its own under the temp folder, as a host installs plugins.
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'plugin-runs-'));
    standard = writePlugin(base, 'installed/devtools', 'devtools', 'standard');
    claude = writePlugin(base, 'claude/cache/market/reviewer/2.0.0', 'reviewer', 'claude');
    fs.mkdirSync(path.join(base, 'not-a-plugin'));
  });
  afterEach(async () => {
    await core?.flush();
    removeTempDir(base);
  });

  it('gives the script the plugin root and a data folder made before the run and kept across runs (sandbox off)', async () => {
    open('off');
    const dataRoot = path.join(base, 'state', 'plugin-data');
    assert.equal(fs.existsSync(dataRoot), false, 'nothing is made before a run');
    const first = await run('devtools-tool');
    assert.equal(first.exit_code, 0, first.stderr);
    assert.equal(field(first.stdout, 'root'), fs.realpathSync(standard));
    const data = pluginDataDir(dataRoot, { name: 'devtools', root: standard, version: '1.0.0' });
    assert.equal(field(first.stdout, 'data'), path.join(fs.realpathSync(dataRoot), path.basename(data)));
    assert.equal(field(first.stdout, 'kept'), 'none');
    assert.equal(field(first.stdout, 'wrote'), '0', 'PLUGIN_DATA is writable');
    assert.equal(field(first.stdout, 'claude_root'), 'unset', 'a standard plugin gets only the standard names');
    assert.equal((fs.statSync(data).mode & 0o777).toString(8), '700', 'the data folder is private to the user');
    const second = await run('devtools-tool');
    assert.equal(field(second.stdout, 'kept'), 'run', 'what a run wrote to PLUGIN_DATA is there for the next run');
  });

  it('takes the plugin from the root that holds the skill, never by scanning every skill (issue 23.4)', async () => {
    open('off');
    let scans = 0;
    const all = core.skills.all.bind(core.skills);
    core.skills.all = () => {
      scans++;
      return all();
    };
    const r = await run('devtools-tool');
    assert.equal(field(r.stdout, 'root'), fs.realpathSync(standard), 'the run still gets its plugin');
    assert.equal(scans, 0, 'the run looked up its plugin by scanning registry.all()');
  });

  it("gives a Claude Code plugin's scripts CLAUDE_PLUGIN_ROOT and CLAUDE_SKILL_DIR too", async () => {
    open('off');
    const r = await run('reviewer-tool');
    assert.equal(field(r.stdout, 'root'), fs.realpathSync(claude));
    assert.equal(field(r.stdout, 'claude_root'), fs.realpathSync(claude));
    const skillDir = field(r.stdout, 'claude_skill') ?? '';
    assert.ok(fs.existsSync(path.join(skillDir, 'scripts', 'show.sh')) || /\/skills\/reviewer-tool$/.test(skillDir), `CLAUDE_SKILL_DIR is the run's copy of the skill: ${skillDir}`);
  });

  it('attack: a call env naming PLUGIN_ROOT or PLUGIN_DATA does not point them elsewhere', async () => {
    open('off');
    const r = await run('devtools-tool', { PLUGIN_ROOT: '/etc', PLUGIN_DATA: '/tmp' });
    assert.equal(field(r.stdout, 'root'), fs.realpathSync(standard));
    assert.notEqual(field(r.stdout, 'data'), '/tmp');
  });

  it('attack (bubblewrap): the plugin folder is read-only and another plugin\'s data folder is not there', async function () {
    if (!(await sandboxWorks(setup()))) this.skip();
    open('required');
    fs.mkdirSync(path.join(base, 'state', 'plugin-data', 'other'), { recursive: true });
    fs.writeFileSync(path.join(base, 'state', 'plugin-data', 'other', 'secret'), 'x');
    const r = await run('devtools-tool');
    assert.equal(r.sandboxed, true);
    assert.equal(field(r.stdout, 'wrote'), '0', 'PLUGIN_DATA is writable in the sandbox');
    assert.notEqual(field(r.stdout, 'rootwrite'), '0', 'touching a file in PLUGIN_ROOT fails');
    assert.equal(fs.existsSync(path.join(standard, 'pwned')), false);
    assert.notEqual(field(r.stdout, 'other'), '0', "another plugin's data folder is not visible");
    assert.equal(fs.readFileSync(path.join(pluginDataDir(path.join(base, 'state', 'plugin-data'), { name: 'devtools', root: standard, version: '1.0.0' }), 'counter'), 'utf8'), 'run\n');
  });

  it('reports a folder that is not a plugin and keeps the others', () => {
    const plugins = open('off');
    const bad = plugins.find((p) => p.root === path.join(base, 'not-a-plugin'));
    assert.match(bad?.problems[0]?.message ?? '', /is not a plugin/);
    assert.deepEqual(plugins.filter((p) => p.manifest).map((p) => p.manifest!.name).sort(), ['devtools', 'reviewer']);
  });
});
