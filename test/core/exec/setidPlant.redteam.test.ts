// Red team (issue 22): a sandboxed script writes files the host keeps: its HOME, out/ and saved artifacts, in the
// runner's state folder. Inside, the script is the runner's uid (a root runner's script is the host's uid 0 without
// capabilities), so it may set the set-user-id bit on a file it owns. Found: `cp /usr/bin/bash $HOME/b; chmod 4755`
// left a set-uid-root shell in a 0755 state folder, and any local account ran `b -p` with euid 0. The runner's
// state folder is now the runner's alone (0700, whatever its parents allow), and saved artifacts never keep a
// set-id bit. Run as root (the escalation) and as the unprivileged account (the folder rule).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArtifactRef } from '../../../src/core/exec/artifactStore';
import { cleanup, sandboxWorks, setup, type Sandbox } from './helpers';

const TEST_USER = process.env.SKILLS_TEST_USER || 'agent-skills-test';

describe('core/exec: a sandboxed script cannot leave a set-id program for other accounts (red team)', function () {
  let sb: Sandbox;
  before(async function () {
    sb = setup();
    // A state folder whose parents every account may pass through (a CI checkout, a --state-dir in a shared place).
    fs.chmodSync(sb.tmp, 0o755);
    if (!(await sandboxWorks(sb))) this.skip();
  });
  after(() => cleanup(sb));

  it('the planted set-uid copies stay out of reach: the state folder is the runner\'s alone, an artifact has no set-id bit', async function () {
    fs.writeFileSync(
      path.join(sb.skillRoot, 'scripts', 'plant.sh'),
      '#!/bin/sh\ncp /usr/bin/bash "$HOME/b" && chmod 6755 "$HOME/b"\ncp /usr/bin/bash out/b2 && chmod 6755 out/b2\nls -l "$HOME/b" out/b2\n',
      { mode: 0o755 },
    );
    const r = await sb.runner({ sandbox: 'required' }).run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/plant.sh', outputs: { globs: ['out/b2'], save: true, inline: false }, timeoutMs: 15000 });
    assert.equal(r.sandboxed, true);
    assert.match(r.stdout, /^-rws/m, `the script could not set the bit inside, so this test proves nothing: ${r.stdout}${r.stderr}`);
    const st = fs.statSync(sb.stateDir);
    assert.equal(st.mode & 0o077, 0, `state folder ${sb.stateDir} is open to other accounts (mode ${(st.mode & 0o777).toString(8)})`);
    const planted: string[] = [];
    for (const f of fs.readdirSync(sb.stateDir, { recursive: true }) as string[]) {
      const p = path.join(sb.stateDir, f);
      const s = fs.lstatSync(p);
      if (s.isFile() && s.mode & 0o6000) planted.push(p);
    }
    assert.ok(planted.length > 0, 'the planted copies are where the test looks');
    assert.equal(r.artifact_files.length, 1, JSON.stringify(r.artifact_files));
    const saved = sb.runner().artifacts.stat(parseArtifactRef(r.artifact_files[0].ref)!);
    assert.ok(saved, r.artifact_files[0].ref);
    assert.equal(fs.statSync(saved.path).mode & 0o6000, 0, `artifact ${saved.path} kept a set-id bit`);
    if (process.getuid?.() !== 0) return;
    // As root: another account runs what the script planted, and must not become root.
    const account = spawnSync('getent', ['passwd', TEST_USER], { encoding: 'utf8' });
    if (account.status !== 0) {
      console.log(`    (not tried as another account: no account ${TEST_USER}; the folder mode above is what stops it)`);
      return;
    }
    for (const p of planted) {
      const tried = spawnSync('runuser', ['-u', TEST_USER, '--', p, '-p', '-c', 'id -u'], { encoding: 'utf8' });
      assert.notEqual(tried.stdout.trim(), '0', `${TEST_USER} became root through ${p}`);
    }
  });
});
