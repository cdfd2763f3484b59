// What the sandbox shows of the host besides the run's own folders, and how the launch is put together.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ProgramResolver } from '../../../src/core/exec/interpreters';
import { Launcher } from '../../../src/core/exec/runLaunch';
import { interpreterBinds } from '../../../src/core/exec/sandbox/mountPlan';
import { hostSystemView, identityFiles, sandboxUser } from '../../../src/core/exec/sandboxView';
import { cleanup, sandboxWorks, setup, type Sandbox } from './helpers';

describe('core/exec sandbox view and launch', () => {
  let sb: Sandbox;
  before(() => {
    sb = setup();
  });
  after(() => cleanup(sb));

  it('binds a trusted interpreter outside the system folders by its prefix; one under HOME, /tmp, the state folder or the skill not at all', () => {
    const roots = { view: hostSystemView(), stateDir: sb.stateDir, forbidden: [sb.skillRoot] };
    const sh = fs.realpathSync('/bin/sh');
    assert.deepEqual(interpreterBinds([sh, '/bin/sh'], roots), [], 'a system program needs no bind');
    // Real executables in places a skill, a script or a user can write: none becomes a bind.
    const places = [path.join(sb.skillRoot, 'tools', 'bin'), path.join(sb.stateDir, 'deps', 'x', 'home', 'bin'), path.join(os.tmpdir(), `agent-skills-bin-${process.pid}`, 'bin')];
    if (fs.existsSync(os.homedir())) places.push(path.join(os.homedir(), `.agent-skills-test-${process.pid}`, 'bin'));
    const made: string[] = [];
    try {
      for (const dir of places) {
        fs.mkdirSync(dir, { recursive: true });
        made.push(path.dirname(dir));
        const tool = path.join(dir, 'tool');
        fs.copyFileSync(sh, tool);
        fs.chmodSync(tool, 0o755);
        assert.deepEqual(interpreterBinds([tool], roots), [], tool);
        // A link from a trusted folder's name to it changes nothing: trust follows the real path.
        fs.symlinkSync(tool, path.join(dir, 'python3'));
        assert.deepEqual(interpreterBinds([path.join(dir, 'python3')], roots), [], `${tool} through a link`);
      }
    } finally {
      for (const m of made) fs.rmSync(m, { recursive: true, force: true });
    }
    // Under a toolchain prefix (/opt): its prefix, as root only (another user cannot write /opt).
    if (process.getuid?.() !== 0) {
      console.log('      (the /opt half of this test runs as root only: another user cannot make a folder in /opt)');
      return;
    }
    const opt = fs.mkdtempSync('/opt/agent-skills-test-');
    try {
      fs.mkdirSync(path.join(opt, 'bin'));
      fs.copyFileSync(sh, path.join(opt, 'bin', 'node'));
      fs.chmodSync(path.join(opt, 'bin', 'node'), 0o755);
      assert.deepEqual(interpreterBinds([path.join(opt, 'bin', 'node')], roots), [opt]);
    } finally {
      fs.rmSync(opt, { recursive: true, force: true });
    }
  });

  it('names only root and the script user in the generated passwd and group, with the skill HOME; root maps to nobody, also on the host', () => {
    assert.deepEqual(sandboxUser(0, 0), { uid: 65534, gid: 65534, host: { uid: 65534, gid: 65534 } });
    assert.deepEqual(sandboxUser(1001, 1001), { uid: 1001, gid: 1001 });
    const files = identityFiles({ uid: 1001, gid: 1001 }, '/state/deps/x/home');
    assert.equal(files.passwd.trim().split('\n').length, 2);
    assert.match(files.passwd, /^skill:x:1001:1001:[^:]*:\/state\/deps\/x\/home:\/bin\/sh$/m);
    assert.deepEqual(files.passwd.trim().split('\n').map((l) => l.split(':')[0]), ['root', 'skill']);
    assert.deepEqual(identityFiles(sandboxUser(0, 0), '/h').passwd.trim().split('\n').map((l) => l.split(':').slice(0, 3).join(':')), ['root:x:0', 'nobody:x:65534']);
  });

  it('shows no home, /run, /var, /opt or /tmp of the host in the system view', () => {
    const v = hostSystemView();
    for (const b of v.binds) assert.match(b, /^\/(usr|bin|sbin|lib|lib32|lib64|libx32)$|^\/etc\/[^/]+$/, b);
    assert.ok(!v.binds.includes('/etc/passwd') && !v.binds.includes('/etc/shadow'));
  });

  it("gives bwrap an empty environment and the script its own through --setenv; without a sandbox the run's environment goes to the persistent launcher in its start message", async () => {
    const launcher = new Launcher(new ProgramResolver(process.env.PATH ?? ''), sb.stateDir);
    const spec = {
      runId: 'r1',
      argv: ['/usr/bin/true'],
      hostEnv: { PATH: '/usr/bin:/bin' },
      callEnv: { CALL_VAR: 'x', HOME: '/elsewhere' },
      runtimeEnv: { HOME: path.join(sb.tmp, 'home') },
      workspace: path.join(sb.tmp, 'ws'),
      skillsDir: path.join(sb.tmp, 'ws/skills'),
      snapshotDir: path.join(sb.tmp, 'snap'),
      home: path.join(sb.tmp, 'home'),
      depDirs: [],
      depsRoot: path.join(sb.tmp, 'deps'),
      linked: [],
      cwd: path.join(sb.tmp, 'ws'),
      maxFileBytes: 1024,
      maxProcesses: 64,
    };
    for (const d of [spec.skillsDir, spec.snapshotDir, spec.home]) fs.mkdirSync(d, { recursive: true });
    const sandboxed = await launcher.build({ ...spec, probe: { available: true, backend: 'bubblewrap', program: '/usr/bin/bwrap', options: { disableUserns: false, sizeOption: false, bindFdOption: false, seccomp: false } } });
    assert.deepEqual(sandboxed.env, {});
    const setenv = sandboxed.args.flatMap((a, i) => (a === '--setenv' ? [`${sandboxed.args[i + 1]}=${sandboxed.args[i + 2]}`] : []));
    assert.ok(setenv.includes('CALL_VAR=x'));
    assert.ok(setenv.includes(`HOME=${spec.home}`), 'the runtime HOME wins over the call');
    assert.ok(sandboxed.args.indexOf('--clearenv') < sandboxed.args.indexOf('--setenv'));
    for (const flag of ['--unshare-user', '--unshare-pid', '--unshare-net', '--new-session', '--die-with-parent']) assert.ok(sandboxed.args.includes(flag), flag);
    assert.deepEqual(sandboxed.args.slice(sandboxed.args.indexOf('--cap-drop'), sandboxed.args.indexOf('--cap-drop') + 2), ['--cap-drop', 'ALL']);
    // Without a sandbox the persistent launcher (started with an empty environment) gets this run's
    // environment in its start message: the call's variables under the runtime's.
    const local = await launcher.build(spec);
    // Never started: its pids cgroup (a root runner) is removed here, as a run's end does.
    assert.notEqual(await local.release?.(), false, 'the unused pids cgroup was not removed');
    assert.ok(local.start, 'started through the persistent launcher');
    assert.equal(local.env.CALL_VAR, 'x');
    assert.equal(local.env.HOME, spec.home, 'a runtime variable is not overridden by the call');
  });

  it("a root runner's sandbox: the first stage binds every checked source by descriptor, then drops to nobody, whose bwrap makes the namespaces over the whole tree", async () => {
    const launcher = new Launcher(new ProgramResolver(process.env.PATH ?? ''), sb.stateDir);
    const ws = path.join(sb.tmp, 'drop-ws');
    const spec = {
      runId: 'r2',
      argv: ['/usr/bin/true'],
      hostEnv: { PATH: '/usr/bin:/bin' },
      callEnv: {},
      runtimeEnv: {},
      workspace: ws,
      skillsDir: path.join(ws, 'skills'),
      snapshotDir: path.join(sb.tmp, 'drop-snap'),
      home: path.join(sb.tmp, 'drop-home'),
      depDirs: [],
      depsRoot: path.join(sb.tmp, 'drop-deps'),
      linked: [],
      cwd: ws,
      maxFileBytes: 1024,
      maxProcesses: 64,
    };
    for (const d of [spec.skillsDir, spec.snapshotDir, spec.home]) fs.mkdirSync(d, { recursive: true });
    const drop = { setpriv: '/usr/bin/setpriv', bwrap: '/usr/bin/bwrap', uid: 65534, gid: 65534 };
    const built = await launcher.build({ ...spec, probe: { available: true, backend: 'bubblewrap', program: '/usr/bin/bwrap', options: { disableUserns: true, sizeOption: false, bindFdOption: true, seccomp: false, drop }, handsOver: { uid: drop.uid, gid: drop.gid } } });
    const a = built.args;
    const stage = a.indexOf('--');
    assert.deepEqual(a.slice(stage, stage + 9), ['--', '/usr/bin/setpriv', '--reuid', '65534', '--regid', '65534', '--clear-groups', '--', '/usr/bin/bwrap']);
    const first = a.slice(0, stage);
    const second = a.slice(stage + 9);
    // The first stage (root) makes no user namespace and drops nothing itself; the second makes them all.
    for (const flag of ['--unshare-user', '--uid', '--cap-drop', '--new-session']) assert.ok(!first.includes(flag) && second.includes(flag), flag);
    // Inside, the sandbox user (nobody for a root runner, whose probe alone ever carries a drop).
    const user = sandboxUser(process.getuid?.() ?? 1000, process.getgid?.() ?? 1000);
    assert.deepEqual(second.slice(second.indexOf('--uid'), second.indexOf('--uid') + 4), ['--uid', String(user.uid), '--gid', String(user.gid)]);
    assert.ok(second.includes('--disable-userns'));
    assert.deepEqual(second.slice(second.indexOf('--dev-bind'), second.indexOf('--dev-bind') + 5), ['--dev-bind', '/', '/', '--proc', '/proc']);
    // Every bind of the first stage by path is pinned, except the whole /proc the second stage covers and /dev/null masks.
    const pinned = new Set(built.pins ?? []);
    const byPath = first.flatMap((x, i) => ((x === '--bind' || x === '--ro-bind') && !pinned.has(i) ? [first[i + 1]] : [])).filter((src) => src !== '/dev/null');
    assert.deepEqual(byPath, ['/proc']);
    assert.ok(pinned.size > 5);
    // Folders above the run's binds are made 0755 first (root's bwrap would copy a 0700 temp or state folder's mode).
    assert.ok(first.join(' ').includes(`--perms 0755 --dir ${sb.tmp}`), first.join(' '));
  });

  it('runs an interpreter found through a link in a folder the sandbox does not show by its real path', async function () {
    if (!(await sandboxWorks(sb))) this.skip();
    const node = fs.realpathSync(process.execPath);
    const prefix = path.join(sb.tmp, 'opt-node');
    fs.mkdirSync(path.join(prefix, 'bin'), { recursive: true });
    fs.symlinkSync(node, path.join(prefix, 'bin', 'node'));
    const runner = sb.runner({ sandbox: 'required', searchPath: `${path.join(prefix, 'bin')}:${process.env.PATH}` });
    const r = await runner.run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/hello.js', args: ['x'] });
    assert.equal(r.sandboxed, true);
    // The link's folder is under /tmp (never bound): the trusted real program runs instead.
    assert.equal(r.argv[0], node);
    assert.equal(r.exit_code, 0, r.stderr);
    assert.equal(r.stdout, 'js x\n');
  });
});
