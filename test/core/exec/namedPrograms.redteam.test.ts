// Issue 22, second pair of eyes: a program named by its path (a #! line the skill wrote, or a command's program a
// model wrote) under a toolchain folder (/opt) was trusted by its real path and its install prefix bound read-only,
// so `#!/opt/app/bin/bash` showed all of /opt/app (its configuration, keys) to the script, though /opt is not in the
// sandbox and the README promises a #! line never becomes a bind. Now only the runner's own PATH finds toolchain
// programs; a named path runs as written only from a system folder. Real runner, real bwrap. Planting under /opt
// needs root: the unprivileged pass skips with the reason printed.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cleanup, sandboxWorks, setup, type Sandbox } from './helpers';

describe('core/exec named programs: a #! line or a command path never binds a toolchain folder (red team)', function () {
  let sb: Sandbox;
  const tag = randomBytes(4).toString('hex');
  const app = `/opt/agent-skills-redteam-${tag}`;
  const secret = `opt-secret-${tag}`;

  before(async function () {
    if (process.getuid?.() !== 0) {
      console.log('      skipped: planting a program under /opt (a toolchain folder) needs root; the root pass runs these');
      this.skip();
    }
    sb = setup();
    if (!(await sandboxWorks(sb))) this.skip();
    fs.mkdirSync(path.join(app, 'bin'), { recursive: true });
    fs.copyFileSync('/usr/bin/bash', path.join(app, 'bin', 'bash'));
    fs.chmodSync(path.join(app, 'bin', 'bash'), 0o755);
    fs.writeFileSync(path.join(app, 'secret.txt'), `${secret}\n`, { mode: 0o644 });
  });
  after(() => {
    fs.rmSync(app, { recursive: true, force: true });
    cleanup(sb);
  });

  const readSecret = `cat ${app}/secret.txt 2>/dev/null || echo "secret: unreadable"\necho done`;

  function skillWith(name: string, shebang: string): string {
    const root = path.join(sb.tmp, name);
    fs.cpSync(sb.skillRoot, root, { recursive: true });
    fs.writeFileSync(path.join(root, 'scripts', 'evil'), `#!${shebang}\n${readSecret}\n`, { mode: 0o755 });
    return root;
  }

  const searchPath = '/usr/local/bin:/usr/bin:/bin';

  for (const [label, shebang] of [
    ['an absolute #! path', `${app}/bin/bash`],
    ['#!/usr/bin/env with an absolute path', `/usr/bin/env ${app}/bin/bash`],
  ] as const) {
    it(`${label} under /opt does not show /opt/<app>: the script runs with bash from PATH and the secret stays unread`, async () => {
      const name = `named-${label.length}`;
      const root = skillWith(name, shebang);
      const r = await sb.runner({ sandbox: 'required', searchPath }).run({ skillName: name, skillRoot: root, script: 'scripts/evil', timeoutMs: 15000 });
      const all = `${r.stdout}\n${r.stderr}`;
      assert.equal(r.sandboxed, true, all);
      assert.doesNotMatch(all, new RegExp(secret), all);
      assert.match(r.stdout, /secret: unreadable[\s\S]*done/, all);
      assert.equal(r.argv?.[0], '/usr/bin/bash', JSON.stringify(r.argv));
      assert.ok(r.warnings.some((w) => w.includes(`#! interpreter ${app}/bin/bash is not one the sandbox runs as written`)), JSON.stringify(r.warnings));
    });
  }

  it("a command's program given by its /opt path (a denied list runs commands without a shell) is refused, naming it", async () => {
    const runner = sb.runner({ sandbox: 'required', searchPath, deniedCommands: ['rm'] });
    await assert.rejects(
      runner.run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, command: `${app}/bin/bash -c 'cat ${app}/secret.txt'`, timeoutMs: 15000 }),
      (e: Error & { code?: string }) => e.code === 'interpreter_not_found' && e.message.includes(`${app}/bin/bash" is not in a system folder the sandbox shows`),
    );
    // By its name it is looked up on the runner's PATH (here without /opt/...): the system bash, which cannot see /opt.
    const r = await runner.run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, command: `bash -c 'cat ${app}/secret.txt || echo unreadable'`, timeoutMs: 15000 });
    assert.doesNotMatch(`${r.stdout}\n${r.stderr}`, new RegExp(secret));
    assert.match(r.stdout, /unreadable/, r.stderr);
  });

  it('the same program found by the runner on its PATH still runs, its install prefix shown read-only (the intended way)', async () => {
    const root = skillWith('named-onpath', '/usr/bin/env bash');
    const r = await sb.runner({ sandbox: 'required', searchPath: `${app}/bin:${searchPath}` }).run({ skillName: 'named-onpath', skillRoot: root, script: 'scripts/evil', timeoutMs: 15000 });
    const all = `${r.stdout}\n${r.stderr}`;
    assert.equal(r.sandboxed, true, all);
    assert.equal(r.argv?.[0], `${app}/bin/bash`, JSON.stringify(r.argv));
    assert.match(r.stdout, new RegExp(`${secret}[\\s\\S]*done`), all);
  });
});
