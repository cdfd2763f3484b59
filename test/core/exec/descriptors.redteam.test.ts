// Issue 22 point 4: a script starts with only stdin, stdout and stderr, sandboxed or not. Before, a
// descriptor the runner's process inherited above Node's start-up sweep (here 240, on a host file, and
// 241, a pipe) reached the script: a sandboxed script appended to the host file through 240. The runner
// runs in a process of its own (runnerChild.ts) started with both open, as an editor or a shell could.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cleanup, onPath, sandboxWorks, setup, type Sandbox } from './helpers';

const CHILD = path.join(__dirname, 'runnerChild.ts');

// Every descriptor below 1024 the script holds (fstat, so listing opens none), and what writing to 240 and 241 did.
const PROBE = `import os, json
held = []
for fd in range(1024):
    try:
        os.fstat(fd)
        held.append(fd)
    except OSError:
        pass
wrote = {}
for fd in (240, 241):
    try:
        os.write(fd, b"written by the script\\n")
        wrote[fd] = "ok"
    except OSError as e:
        wrote[fd] = e.strerror
print(json.dumps({"held": held, "wrote": wrote}))
`;

/** Runs the probe through a runner whose process holds fd 240 (the host file) and fd 241 (a pipe). */
async function runWithInherited(sb: Sandbox, sandbox: 'off' | 'required', target: string): Promise<{ held: number[]; wrote: Record<string, string>; sandboxed: boolean }> {
  const file = fs.openSync(target, 'a');
  try {
    const stdio: ('ignore' | 'pipe' | number)[] = ['ignore', 'pipe', 'pipe'];
    for (let i = 3; i < 240; i++) stdio.push('ignore');
    stdio.push(file, 'pipe');
    const request = { skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/fds.py', timeoutMs: 15000 };
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify({ options: { stateDir: sb.stateDir, sandbox }, request })], { stdio });
    let out = '';
    let err = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    await new Promise<void>((resolve) => child.on('close', () => resolve()));
    const line = JSON.parse(out.trim().split('\n').pop() ?? '{}') as { stdout?: string; sandboxed?: boolean; error?: string; message?: string };
    assert.equal(line.error, undefined, `the run was refused: ${line.message} ${err}`);
    return { ...(JSON.parse(line.stdout!) as { held: number[]; wrote: Record<string, string> }), sandboxed: line.sandboxed === true };
  } finally {
    fs.closeSync(file);
  }
}

describe('core/exec descriptors a script starts with (issue 22.4)', function () {
  this.timeout(60000);
  let sb: Sandbox;
  before(function () {
    if (process.platform !== 'linux') {
      console.log('      skipped: descriptors are read from /proc (Linux only)');
      this.skip();
    }
    if (!onPath('python3')) {
      console.log('      skipped: the probe script needs python3');
      this.skip();
    }
    sb = setup();
    fs.writeFileSync(path.join(sb.skillRoot, 'scripts', 'fds.py'), PROBE);
  });
  after(() => cleanup(sb));

  // The rule both the launcher (which closes them) and the runner's sh fallback (which refuses while any is
  // open) go by: the descriptors a process holds without close-on-exec, its own Node ones never among them.
  it('finds the descriptors a process inherited without close-on-exec, and none of its own', () => {
    const stdio: ('ignore' | 'pipe' | number)[] = ['ignore', 'pipe', 'pipe'];
    for (let i = 3; i < 240; i++) stdio.push('ignore');
    const file = fs.openSync(path.join(sb.tmp, 'held.txt'), 'a');
    try {
      stdio.push(file, 'pipe');
      const src = path.resolve(__dirname, '../../../src/core/exec/descriptors.ts');
      const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', `import(${JSON.stringify(src)}).then((m) => console.log(JSON.stringify((m.inheritedFds ?? m.default.inheritedFds)())))`], { stdio, encoding: 'utf8' });
      const found = JSON.parse(String(r.stdout).trim()) as number[];
      assert.ok(found.includes(240) && found.includes(241), `found ${found}`);
      assert.ok(found.every((fd) => fd > 2), `found ${found}`);
      // Node's own descriptors (its event loop, its pipes to us) are close-on-exec: only inherited ones remain.
      const own = spawnSync(process.execPath, ['--import', 'tsx', '-e', `import(${JSON.stringify(src)}).then((m) => console.log(JSON.stringify((m.inheritedFds ?? m.default.inheritedFds)())))`], { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
      const inheritedHere = JSON.parse(String(own.stdout).trim()) as number[];
      assert.ok(!inheritedHere.includes(240) && !inheritedHere.includes(241), `found ${inheritedHere}`);
    } finally {
      fs.closeSync(file);
    }
  });

  it('gives an unsandboxed script only 0, 1 and 2 though the runner holds 240 and a pipe', async () => {
    const target = path.join(sb.tmp, 'host-file-off.txt');
    const r = await runWithInherited(sb, 'off', target);
    assert.equal(r.sandboxed, false);
    assert.deepEqual(r.held, [0, 1, 2]);
    assert.deepEqual(r.wrote, { '240': 'Bad file descriptor', '241': 'Bad file descriptor' });
    assert.equal(fs.readFileSync(target, 'utf8'), '', 'nothing reached the host file');
  });

  it('gives a sandboxed script only 0, 1 and 2 though the runner holds 240 and a pipe', async function () {
    if (!(await sandboxWorks(sb))) this.skip();
    const target = path.join(sb.tmp, 'host-file-sandbox.txt');
    const r = await runWithInherited(sb, 'required', target);
    assert.equal(r.sandboxed, true);
    assert.deepEqual(r.held, [0, 1, 2]);
    assert.deepEqual(r.wrote, { '240': 'Bad file descriptor', '241': 'Bad file descriptor' });
    assert.equal(fs.readFileSync(target, 'utf8'), '', 'nothing reached the host file');
  });
});
