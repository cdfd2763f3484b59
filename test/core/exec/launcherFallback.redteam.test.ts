// Issue 22 point 4, the runner's `sh` fallback end to end, with no test hook: the runner runs in a process of its
// own (runnerChild.ts) whose PATH starts with a folder holding an `sh` that refuses to become the persistent
// launcher (it exits when asked to exec `node -e <launcher program>`) and is /bin/sh otherwise, as a broken or replaced shell
// on an editor's PATH could. The launcher is what closes inherited descriptors; without it the runner must refuse
// while it holds any (fd 240 on a host file here) rather than hand them to the script, and run otherwise. The child
// first closes whatever else the shell that started the suite passed on, so it holds exactly what each test says.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cleanup, sandboxWorks, setup, type Sandbox } from './helpers';

const CHILD = path.join(__dirname, 'runnerChild.ts');

interface ChildResult {
  error?: string;
  message?: string;
  stdout?: string;
  exit_code?: number;
  sandboxed?: boolean;
}

/** Runs scripts/parent.sh through a runner in a child process; `holdFd240` opens fd 240 on `hostFile` for it. */
async function runInChild(sb: Sandbox, o: { sandbox: 'off' | 'required'; brokenShell: boolean; hostFile?: string; marker: string }): Promise<ChildResult> {
  const stdio: ('ignore' | 'pipe' | number)[] = ['ignore', 'pipe', 'pipe'];
  const file = o.hostFile ? fs.openSync(o.hostFile, 'a') : undefined;
  try {
    if (file !== undefined) {
      for (let i = 3; i < 240; i++) stdio.push('ignore');
      stdio.push(file);
    }
    const PATH = [...(o.brokenShell ? [path.join(sb.tmp, 'broken-shell')] : []), process.env.PATH ?? '/usr/bin:/bin'].join(path.delimiter);
    const request = { skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/parent.sh', args: [o.marker], timeoutMs: 15000 };
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify({ options: { stateDir: sb.stateDir, sandbox: o.sandbox }, request, keepInherited: file === undefined ? [] : [240] })], { stdio, env: { ...process.env, PATH } });
    let out = '';
    let err = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    await new Promise<void>((resolve) => child.on('close', () => resolve()));
    const last = out.trim().split('\n').pop();
    assert.ok(last, `the runner printed no result; stderr: ${err}`);
    return JSON.parse(last) as ChildResult;
  } finally {
    if (file !== undefined) fs.closeSync(file);
  }
}

describe('core/exec the sh fallback when the persistent launcher cannot start (issue 22.4)', function () {
  this.timeout(90000);
  let sb: Sandbox;
  before(function () {
    if (process.platform !== 'linux') {
      console.log('      skipped: inherited descriptors are read from /proc (Linux only)');
      this.skip();
    }
    sb = setup();
    // The script records that it ran and names its parent: `sh` under the fallback, node under the launcher.
    fs.writeFileSync(path.join(sb.skillRoot, 'scripts', 'parent.sh'), '#!/bin/sh\necho ran > "$1" 2>/dev/null\ncat /proc/$PPID/comm\n', { mode: 0o755 });
    const broken = path.join(sb.tmp, 'broken-shell');
    fs.mkdirSync(broken);
    fs.writeFileSync(path.join(broken, 'sh'), '#!/bin/sh\n[ "$3" = agent-skills-launcher ] && [ "$6" = -e ] && exit 97\nexec /bin/sh "$@"\n', { mode: 0o755 });
    fs.chmodSync(sb.tmp, 0o755);
  });
  after(() => cleanup(sb));

  it('runs through the persistent launcher normally: the script\'s parent is the launcher (the control)', async () => {
    const marker = path.join(sb.tmp, 'ran-control');
    const r = await runInChild(sb, { sandbox: 'off', brokenShell: false, marker });
    assert.equal(r.error, undefined, r.message);
    assert.equal(r.stdout?.trim(), 'node', `parent: ${r.stdout}`);
    assert.ok(fs.existsSync(marker));
  });

  it('falls back to sh when the launcher cannot start and the runner holds no inherited descriptor', async () => {
    const marker = path.join(sb.tmp, 'ran-fallback');
    const r = await runInChild(sb, { sandbox: 'off', brokenShell: true, marker });
    assert.equal(r.error, undefined, r.message);
    assert.equal(r.stdout?.trim(), 'sh', `the script ran under the sh fallback, not the launcher: ${JSON.stringify(r)}`);
    assert.ok(fs.existsSync(marker));
  });

  it('refuses the run, naming fd 240, when the launcher cannot start and the runner holds fd 240 (unsandboxed)', async () => {
    const marker = path.join(sb.tmp, 'ran-refused-off');
    const hostFile = path.join(sb.tmp, 'host-file-off.txt');
    const r = await runInChild(sb, { sandbox: 'off', brokenShell: true, hostFile, marker });
    assert.equal(r.error, 'internal_error', JSON.stringify(r));
    assert.match(r.message ?? '', /launcher could not start.*descriptors 240\b/s);
    assert.ok(!fs.existsSync(marker), 'the script never started');
    assert.equal(fs.readFileSync(hostFile, 'utf8'), '');
  });

  it('refuses the sandboxed run the same way (bwrap would pass fd 240 into the sandbox)', async function () {
    if (!(await sandboxWorks(sb))) {
      console.log('      skipped: bubblewrap does not work here');
      this.skip();
    }
    const r = await runInChild(sb, { sandbox: 'required', brokenShell: true, hostFile: path.join(sb.tmp, 'host-file-sandbox.txt'), marker: '/tmp/never' });
    assert.equal(r.error, 'internal_error', JSON.stringify(r));
    assert.match(r.message ?? '', /descriptors 240\b/);
  });

  it('runs a sandboxed script from the runner itself when the launcher cannot start and no descriptor is inherited (binds pinned there too)', async function () {
    if (!(await sandboxWorks(sb))) {
      console.log('      skipped: bubblewrap does not work here');
      this.skip();
    }
    const r = await runInChild(sb, { sandbox: 'required', brokenShell: true, marker: '/tmp/never' });
    assert.equal(r.error, undefined, r.message);
    assert.equal(r.sandboxed, true);
    assert.equal(r.exit_code, 0, JSON.stringify(r));
  });
});
