// What the sandbox shows of the host besides the run's own folders, and how the launch is put together.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ProgramResolver } from '../../../src/core/exec/interpreters';
import { Launcher } from '../../../src/core/exec/runLaunch';
import { hostSystemView, identityFiles, interpreterBinds, sandboxUser } from '../../../src/core/exec/sandboxView';
import { cleanup, sandboxWorks, setup, type Sandbox } from './helpers';

describe('core/exec sandbox view and launch', () => {
  let sb: Sandbox;
  before(() => {
    sb = setup();
  });
  after(() => cleanup(sb));

  it('binds an interpreter installed outside the system folders by its prefix, never the home folder or the state folder', () => {
    const view = { binds: ['/usr'], symlinks: [{ path: '/bin', target: 'usr/bin' }] };
    assert.deepEqual(interpreterBinds('/usr/bin/python3', view, []), []);
    assert.deepEqual(interpreterBinds('/bin/sh', view, []), []);
    assert.deepEqual(interpreterBinds('/opt/node-v22/bin/node', view, []), ['/opt/node-v22']);
    assert.deepEqual(interpreterBinds(path.join(os.homedir(), '.nvm/versions/node/v22/bin/node'), view, []), [path.join(os.homedir(), '.nvm/versions/node/v22')]);
    assert.deepEqual(interpreterBinds(path.join(os.homedir(), '.pyenv/shims/python3'), view, []), [path.join(os.homedir(), '.pyenv')]);
    // ~/bin/node: the prefix would be the home folder itself; only the program is bound.
    assert.deepEqual(interpreterBinds(path.join(os.homedir(), 'bin/node'), view, []), [path.join(os.homedir(), 'bin/node')]);
    assert.deepEqual(interpreterBinds('/srv/state/bin/tool', view, ['/srv/state']), ['/srv/state/bin/tool']);
  });

  it('names only root and the script user in the generated passwd and group, with the skill HOME; root maps to nobody', () => {
    assert.deepEqual(sandboxUser(0, 0), { uid: 65534, gid: 65534 });
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
    };
    const sandboxed = await launcher.build({ ...spec, probe: { available: true, program: '/usr/bin/bwrap', disableUserns: false } });
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
    assert.ok(local.start, 'started through the persistent launcher');
    assert.equal(local.env.CALL_VAR, 'x');
    assert.equal(local.env.HOME, spec.home, 'a runtime variable is not overridden by the call');
  });

  it('runs an interpreter from a prefix outside /usr inside the sandbox', async function () {
    if (!(await sandboxWorks(sb))) this.skip();
    const node = fs.realpathSync(process.execPath);
    const prefix = path.join(sb.tmp, 'opt-node');
    fs.mkdirSync(path.join(prefix, 'bin'), { recursive: true });
    fs.symlinkSync(node, path.join(prefix, 'bin', 'node'));
    const runner = sb.runner({ sandbox: 'required', searchPath: `${path.join(prefix, 'bin')}:${process.env.PATH}` });
    const r = await runner.run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/hello.js', args: ['x'] });
    assert.equal(r.sandboxed, true);
    assert.equal(r.argv[0], path.join(prefix, 'bin', 'node'));
    assert.equal(r.exit_code, 0, r.stderr);
    assert.equal(r.stdout, 'js x\n');
  });
});
