// Issue 22 point 1, the window between the bind-time check and bubblewrap's mount: the spawner opens every
// checked bind source as a path descriptor, verifies it is still the checked path, and bwrap binds the
// descriptor (--ro-bind-fd / --bind-fd, bubblewrap 0.8). A folder swapped for a link before the open is refused,
// naming it; one swapped after the open does not change what is bound (real bwrap: the sandbox sees the
// original folder's canary where a path bind shows the swapped-in one).
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pinBinds } from '../../../src/core/exec/sandbox/bindFds';
import { cleanup, onPath, sandboxWorks, setup, type Sandbox } from './helpers';

const openFds = () => fs.readdirSync('/proc/self/fd').length;

describe('core/exec bind sources pinned as descriptors (issue 22.1, bind-time window)', function () {
  this.timeout(60000);
  let sb: Sandbox;
  let a: string;
  let b: string;
  before(function () {
    if (process.platform !== 'linux') {
      console.log('      skipped: O_PATH descriptors and bubblewrap are Linux only');
      this.skip();
    }
  });
  beforeEach(() => {
    sb = setup();
    a = path.join(sb.stateDir, 'runs', 'r1', 'work');
    b = path.join(sb.tmp, 'elsewhere');
    for (const [dir, canary] of [[a, 'CHECKED'], [b, 'SWAPPED-IN']]) {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'canary'), canary);
    }
  });
  afterEach(() => cleanup(sb));

  /** Replaces folder `dir` by a link to `to` (its contents moved aside). */
  const swap = (dir: string, to: string) => {
    fs.renameSync(dir, `${dir}.moved`);
    fs.symlinkSync(to, dir);
  };

  it('turns each pinned bind into a descriptor bind of the checked folder, and leaves the rest', () => {
    const args = ['--unshare-user', '--ro-bind', a, '/a', '--bind', a, '/w', '--setenv', 'X', '--bind', '--', '/bin/true'];
    const r = pinBinds(fs, args, [1, 4], 3);
    try {
      assert.deepEqual(r.args, ['--unshare-user', '--ro-bind-fd', '3', '/a', '--bind-fd', '4', '/w', '--setenv', 'X', '--bind', '--', '/bin/true']);
      assert.equal(r.fds.length, 2);
      for (const fd of r.fds) assert.equal(fs.readlinkSync(`/proc/self/fd/${fd}`), a);
    } finally {
      for (const fd of r.fds) fs.closeSync(fd);
    }
  });

  it('refuses a folder swapped for a link to / after the check, naming it, and keeps no descriptor open', () => {
    const args = ['--ro-bind', '/usr', '/usr', '--bind', a, a];
    swap(a, '/');
    const before = openFds();
    assert.throws(() => pinBinds(fs, args, [0, 3], 3), (e: Error) => e.message.includes(`bind source ${a} changed after it was checked (it is now a link)`));
    assert.equal(openFds(), before, 'the descriptor opened for /usr was closed again');
  });

  it('refuses a source whose parent folder was swapped for a link (the path now leads elsewhere)', () => {
    const inner = path.join(a, 'inner');
    fs.mkdirSync(inner);
    fs.mkdirSync(path.join(b, 'inner'));
    swap(a, b);
    assert.throws(() => pinBinds(fs, ['--ro-bind', inner, '/x'], [0], 3), (e: Error) => e.message.includes(`it is now ${path.join(fs.realpathSync(b), 'inner')}`));
  });

  it('binds what was opened: a swap after the open does not change what the sandbox sees (real bwrap)', async function () {
    if (!onPath('bwrap') || !(await sandboxWorks(sb))) {
      console.log('      skipped: bubblewrap does not work here');
      this.skip();
    }
    const bwrap = spawnSync('sh', ['-c', 'command -v bwrap'], { encoding: 'utf8' }).stdout.trim();
    if (!spawnSync(bwrap, ['--help'], { encoding: 'utf8' }).stdout.includes('--ro-bind-fd')) {
      console.log('      skipped: this bubblewrap has no --ro-bind-fd (0.8+)');
      this.skip();
    }
    const cat = fs.realpathSync(spawnSync('sh', ['-c', 'command -v cat'], { encoding: 'utf8' }).stdout.trim());
    const args = ['--unshare-user', '--ro-bind', '/', '/', '--tmpfs', '/tmp', '--ro-bind', a, '/tmp/probe', '--', cat, '/tmp/probe/canary'];
    const seen = async (argv: string[], fds: number[]) => {
      const child = spawn(bwrap, argv, { stdio: ['ignore', 'pipe', 'pipe', ...fds] });
      for (const fd of fds) fs.closeSync(fd);
      let out = '';
      let err = '';
      child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      assert.equal(code, 0, err);
      return out;
    };
    const pinned = pinBinds(fs, args, [6], 3);
    swap(a, b);
    assert.equal(await seen(pinned.args, pinned.fds), 'CHECKED', 'the descriptor opened before the swap is what got bound');
    // The control: the same bind by path, after the same swap, shows the folder swapped in.
    assert.equal(await seen(args, []), 'SWAPPED-IN');
  });

  it('a sandboxed run binds every checked source by descriptor (bwrap\'s own argv, pid 1 inside, shows no path bind)', async function () {
    if (!(await sandboxWorks(sb))) this.skip();
    if (!spawnSync('sh', ['-c', 'bwrap --help'], { encoding: 'utf8' }).stdout.includes('--ro-bind-fd')) {
      console.log('      skipped: this bubblewrap has no --ro-bind-fd (0.8+)');
      this.skip();
    }
    fs.writeFileSync(path.join(sb.skillRoot, 'scripts', 'argv.sh'), "#!/bin/sh\ntr '\\0' '\\n' < /proc/1/cmdline\n", { mode: 0o755 });
    const r = await sb.runner({ sandbox: 'required' }).run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/argv.sh', timeoutMs: 15000 });
    assert.equal(r.sandboxed, true);
    const argv = r.stdout.split('\n');
    if (process.getuid?.() === 0) {
      // A root runner's pid 1 is the second stage (bubblewrap.ts RootDrop): it binds nothing by path but the first
      // stage's whole tree; the first stage's binds are checked where they are built (sandboxView.test.ts).
      assert.deepEqual(argv.slice(argv.indexOf('--dev-bind'), argv.indexOf('--dev-bind') + 3), ['--dev-bind', '/', '/'], argv.join(' '));
    } else assert.ok(argv.includes('--ro-bind-fd') && argv.includes('--bind-fd'), `bwrap's arguments: ${argv.slice(0, 40).join(' ')}`);
    // Only masks are still bound by path (/dev/null over private /etc files), never a folder.
    const byPath = argv.flatMap((x, i) => (x === '--bind' || x === '--ro-bind' ? [argv[i + 1]] : [])).filter((src) => src !== '/dev/null');
    assert.deepEqual(byPath, []);
  });
});
