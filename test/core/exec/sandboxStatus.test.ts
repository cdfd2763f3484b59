// The runner owns its sandbox state (issue 12 point 5): the confirmation and the CLI show the answer of the
// probe the run decides with. Before, the confirmation looked for bwrap on PATH and said "Sandboxed with
// bubblewrap" while `auto` then ran the script unsandboxed.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ScriptRunError } from '../../../src/core/exec';
import { describeSandbox } from '../../../src/core/exec/sandboxStatus';
import { sandboxConfirmation } from '../../../src/extension/tools/sandboxInfo';
import { cleanup, sandboxWorks, setup, type Sandbox } from './helpers';

const REPO = path.resolve(__dirname, '../../..');

describe('core/exec sandbox status', function () {
  this.timeout(60_000);
  let sb: Sandbox;
  let fakeBin: string;
  before(() => {
    sb = setup();
    // A bubblewrap that is installed but cannot run (as with user namespaces off).
    fakeBin = path.join(sb.tmp, 'fake-bin');
    fs.mkdirSync(fakeBin);
    fs.writeFileSync(path.join(fakeBin, 'bwrap'), '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n', { mode: 0o755 });
  });
  after(() => cleanup(sb));

  const fakePath = () => `${fakeBin}${path.delimiter}${process.env.PATH}`;

  it('with a bwrap that cannot run, the confirmation says "not sandboxed" and the run is not sandboxed, for the same reason', async () => {
    const runner = sb.runner({ sandbox: 'auto', searchPath: fakePath() });
    const status = await runner.sandboxStatus();
    assert.equal(status.sandboxed, false);
    assert.match(status.reason ?? '', /fake-bin\/bwrap failed a trial run \(exit 1: bwrap: No permissions/);
    const confirmation = sandboxConfirmation(status);
    assert.equal(confirmation.title, ' (NOT sandboxed)');
    assert.match(confirmation.text, /^Not sandboxed, because .* the script runs with your user's rights: it can read your files and use the network/);
    const r = await runner.run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/hello.sh' });
    assert.equal(r.sandboxed, false);
    assert.equal(r.sandbox_reason, status.reason);
    assert.ok(r.warnings.includes(confirmation.text), r.warnings.join('\n'));
  });

  it('with "required", the confirmation says the run will be refused, and it is', async () => {
    const runner = sb.runner({ sandbox: 'required', searchPath: fakePath() });
    const status = await runner.sandboxStatus();
    assert.equal(status.refused, true);
    assert.match(sandboxConfirmation(status).text, /^Not run: the sandbox is required but unavailable/);
    await assert.rejects(runner.run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/hello.sh' }), (e: unknown) => e instanceof ScriptRunError && e.code === 'sandbox_unavailable' && e.message === describeSandbox(status));
  });

  it('with a working bwrap, both say sandboxed, and the text names what is isolated', async function () {
    if (!(await sandboxWorks(sb))) this.skip();
    const runner = sb.runner({ sandbox: 'auto' });
    const status = await runner.sandboxStatus();
    const text = sandboxConfirmation(status).text;
    assert.match(text, /^Sandboxed with bubblewrap .*no network.*not your home folder.*unprivileged user without capabilities/);
    const r = await runner.run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/hello.sh' });
    assert.equal(r.sandboxed, true);
    assert.equal(r.warnings.some((w) => w.startsWith('Not sandboxed')), false);
  });

  it('"off" is reported as chosen, without a warning in the result', async () => {
    const runner = sb.runner({ sandbox: 'off' });
    const status = await runner.sandboxStatus();
    assert.match(describeSandbox(status), /^Not sandboxed \(the sandbox is off/);
    const r = await runner.run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/hello.sh' });
    assert.equal(r.sandboxed, false);
    assert.equal(r.warnings.some((w) => w.startsWith('Not sandboxed')), false);
  });

  it('the CLI says on stderr that auto found no sandbox, also with --json', () => {
    // npm test builds dist/ before the suites (a non-root run may not write it).
    assert.ok(fs.existsSync(path.join(REPO, 'dist/cli.js')), 'dist/cli.js is missing: run node scripts/build.mjs first');
    const skills = path.join(sb.tmp, 'cli-skills');
    fs.mkdirSync(skills);
    fs.cpSync(sb.skillRoot, path.join(skills, 'exec-demo'), { recursive: true });
    const r = spawnSync(process.execPath, [path.join(REPO, 'dist/cli.js'), 'run', '--no-defaults', '--root', skills, '--state-dir', path.join(sb.tmp, 'cli-state'), '--json', 'exec-demo', 'scripts/hello.sh'], {
      cwd: sb.tmp,
      env: { ...process.env, PATH: fakePath(), HOME: sb.tmp, AGENT_SKILLS_STATE_DIR: '' },
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /^agent-skills run: Not sandboxed, because bwrap at .*fake-bin\/bwrap failed a trial run/m);
    assert.equal(JSON.parse(r.stdout).sandboxed, false);
  });
});
