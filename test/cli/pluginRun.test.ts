// `agent-skills run --plugin <dir>` (issue 13 point 1 and 6): a plugin folder outside the workspace whose skill's
// script prints PLUGIN_ROOT and PLUGIN_DATA, through the same run_script tool the chat uses; and the plugins an
// agent installed (Claude Code's installed_plugins.json in a temp HOME) found with no option at all.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PLUGIN_SCHEMA_1_0 } from '../../src/core/plugins';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { removeTempDir } from '../support/tempDir';

const CLI = path.resolve(__dirname, '../../dist/cli.js');

function writePlugin(root: string, name: string): void {
  fs.mkdirSync(path.join(root, 'skills', 'show-env', 'scripts'), { recursive: true });
  fs.writeFileSync(path.join(root, 'plugin.json'), JSON.stringify({ $schema: PLUGIN_SCHEMA_1_0, name, version: '0.1.0' }));
  fs.writeFileSync(path.join(root, 'skills', 'show-env', 'SKILL.md'), '---\nname: show-env\ndescription: Use show-env when you need to see where the plugin lives.\n---\n# Show env\n');
  fs.writeFileSync(path.join(root, 'skills', 'show-env', 'scripts', 'show.sh'), '#!/bin/sh\necho "root=$PLUGIN_ROOT"\necho "data=$PLUGIN_DATA"\ntest -d "$PLUGIN_DATA" && test -w "$PLUGIN_DATA" && echo data-ok\n', { mode: 0o755 });
}

describe('agent-skills run: skills of Agent Plugins', function () {
  this.timeout(60_000);
  let base: string;
  before(function () {
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });
  beforeEach(() => (base = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-plugin-run-'))));
  afterEach(() => removeTempDir(base));

  const run = (args: string[], home = path.join(base, 'home')) =>
    spawnSync(process.execPath, [CLI, 'run', '--state-dir', path.join(base, 'state'), '--sandbox', 'off', ...args], { cwd: path.join(base, 'work'), env: { ...process.env, HOME: home }, encoding: 'utf8' });

  beforeEach(() => {
    fs.mkdirSync(path.join(base, 'work'));
    fs.mkdirSync(path.join(base, 'home'));
  });

  it('--plugin <dir>: the script of a plugin outside the workspace gets PLUGIN_ROOT and PLUGIN_DATA', () => {
    const plugin = path.join(base, 'elsewhere', 'env-tools');
    writePlugin(plugin, 'env-tools');
    const r = run(['--plugin', plugin, '--no-defaults', 'show-env', 'scripts/show.sh']);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^root=${fs.realpathSync(plugin)}$`, 'm'));
    assert.match(r.stdout, /^data=.*\/plugin-data\/env-tools-[0-9a-f]{16}$/m);
    assert.match(r.stdout, /^data-ok$/m);
  });

  it('finds a plugin Claude Code installed (temp HOME) with no option, and says which folder is not a plugin', () => {
    const home = path.join(base, 'home');
    const installed = path.join(home, '.claude', 'plugins', 'cache', 'market', 'env-tools', '0.1.0');
    writePlugin(installed, 'env-tools');
    const notPlugin = path.join(home, '.claude', 'plugins', 'cache', 'market', 'broken');
    fs.mkdirSync(notPlugin, { recursive: true });
    fs.writeFileSync(
      path.join(home, '.claude', 'plugins', 'installed_plugins.json'),
      JSON.stringify({ version: 2, plugins: { 'env-tools@market': [{ installPath: installed }], 'broken@market': [{ installPath: notPlugin }] } }),
    );
    const r = run(['show-env', 'scripts/show.sh'], home);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^data-ok$/m);
    assert.equal(r.stderr.split(`${notPlugin} is not a plugin`).length - 1, 1, r.stderr);
  });

  it('--no-defaults without --root or --plugin is a usage error naming both', () => {
    const r = run(['--no-defaults', 'show-env', 'scripts/show.sh']);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--root <dir> or --plugin <dir>/);
  });
});
