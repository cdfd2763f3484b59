import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { ScriptRunError } from '../../../src/core/exec';
import { cleanup, onPath, setup, type Sandbox } from './helpers';

const code = (c: string) => (err: unknown) => err instanceof ScriptRunError && err.code === c;

describe('core/exec security', () => {
  let sb: Sandbox;
  before(() => {
    sb = setup();
    fs.writeFileSync(path.join(sb.tmp, 'outside.sh'), 'echo escaped\n');
    fs.symlinkSync(path.join(sb.tmp, 'outside.sh'), path.join(sb.skillRoot, 'scripts', 'link-out.sh'));
    fs.symlinkSync(sb.tmp, path.join(sb.skillRoot, 'dir-out'));
  });
  after(() => cleanup(sb));

  const run = (script: string) => sb.runner().run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script });

  it('refuses script paths that leave the skill root', async () => {
    await assert.rejects(run('../outside.sh'), code('path_outside_skill'));
    await assert.rejects(run('scripts/../../outside.sh'), code('path_outside_skill'));
    await assert.rejects(run(path.join(sb.tmp, 'outside.sh')), code('path_outside_skill'));
    await assert.rejects(run('scripts/link-out.sh'), code('path_outside_skill'));
    await assert.rejects(run('dir-out/outside.sh'), code('path_outside_skill'));
    await assert.rejects(run('scripts/hello.sh\0'), code('path_outside_skill'));
    await assert.rejects(run('%2e%2e/outside.sh'), code('path_outside_skill'));
    await assert.rejects(run('scripts/missing.sh'), code('not_found'));
  });

  it('refuses a cwd that leaves the workspace', async () => {
    const req = { skillName: 'exec-demo', skillRoot: sb.skillRoot, command: 'pwd' };
    await assert.rejects(sb.runner().run({ ...req, cwd: '../../..' }), code('path_outside_skill'));
    await assert.rejects(sb.runner().run({ ...req, cwd: '/etc' }), code('path_outside_skill'));
    await assert.rejects(sb.runner().run({ ...req, cwd: '$WORK_DIR/../../..' }), code('path_outside_workspace'));
  });

  it('does not stage symlinks that point out of the skill', async () => {
    const r = await sb.runner().run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, command: 'ls dir-out scripts/link-out.sh' });
    assert.notEqual(r.exit_code, 0);
    assert.ok(r.warnings.some((w) => w.includes('dir-out')));
  });

  it('with command lists: refuses shell syntax, denied and unlisted programs, runs an allowed one without a shell', async () => {
    const runner = sb.runner({ allowedCommands: ['echo', 'ls'], deniedCommands: ['rm'] });
    const req = { skillName: 'exec-demo', skillRoot: sb.skillRoot };
    for (const bad of ['echo a | cat', 'echo a > out/x', 'echo a; ls', 'echo a && ls', 'echo $(id)', 'echo `id`', 'echo "$HOME"', 'echo a &', 'echo *.md']) {
      await assert.rejects(runner.run({ ...req, command: bad }), code('shell_syntax'), bad);
    }
    await assert.rejects(runner.run({ ...req, command: 'rm -rf scripts' }), code('command_denied'));
    await assert.rejects(runner.run({ ...req, command: 'cat SKILL.md' }), code('command_not_allowed'));
    await assert.rejects(runner.run({ ...req, command: './echo hi' }), code('command_not_allowed'));
    const ok = await runner.run({ ...req, command: `echo 'a | b' "c;d" e\\ f` });
    assert.equal(ok.exit_code, 0);
    assert.equal(ok.stdout, 'a | b c;d e f\n');
    // The program is found on the runner's PATH before the call's env applies.
    assert.match(ok.argv[0], /\/echo$/);
    assert.deepEqual(ok.argv.slice(1), ['a | b', 'c;d', 'e f']);
    const deniedOnly = sb.runner({ deniedCommands: ['curl'] });
    await assert.rejects(deniedOnly.run({ ...req, command: '/usr/bin/curl x' }), code('command_denied'));
    await assert.rejects(deniedOnly.run({ ...req, command: 'echo a | curl x' }), code('shell_syntax'));
    assert.equal((await deniedOnly.run({ ...req, command: 'ls SKILL.md' })).stdout, 'SKILL.md\n');
  });

  it('without lists, runs command through bash -c', async () => {
    const r = await sb.runner().run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, command: 'echo a | tr a b' });
    assert.equal(r.stdout, 'b\n');
    assert.match(r.argv[0], /bash$/);
  });

  it('keeps the original skill untouched and the staged copy read-only', async function () {
    const before = fs.readFileSync(path.join(sb.skillRoot, 'scripts', 'hello.sh'), 'utf8');
    const r = await sb.runner().run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/write_self.sh' });
    assert.equal(fs.readFileSync(path.join(sb.skillRoot, 'scripts', 'hello.sh'), 'utf8'), before, 'source skill unchanged');
    assert.ok(!fs.existsSync(path.join(sb.skillRoot, 'new-file.txt')));
    assert.match(r.stdout, /wrote-out/);
    if (process.getuid?.() === 0) {
      console.log('      note: running as root, file permission bits do not stop writes in local mode; checking that a tampered copy is replaced (the sandbox case checks the read-only mount)');
    } else {
      assert.doesNotMatch(r.stdout, /wrote-script|wrote-root/);
    }
    // Whatever the script managed to change, the next run sees the skill as it is on disk.
    const next = await sb.runner().run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/hello.sh', args: ['again'] });
    assert.equal(next.stdout, 'sh again\n');
    const ls = await sb.runner().run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, command: 'ls' });
    assert.doesNotMatch(ls.stdout, /new-file/);
  });

  it('gives every run of one runner the skill as it is on disk, even after a run changed its read-only copy', async () => {
    const runner = sb.runner();
    const hello = { skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/hello.sh', args: ['x'] };
    // Unlocks the snapshot behind the staged links (an owner can chmod) and changes a script in it.
    const tamper = {
      skillName: 'exec-demo',
      skillRoot: sb.skillRoot,
      command: 'd=$(readlink -f scripts); chmod u+w "$d" "$d/hello.sh" && echo "echo tampered" > "$d/hello.sh" && echo done',
    };
    assert.equal((await runner.run(hello)).stdout, 'sh x\n');
    await runner.idle();
    assert.equal((await runner.run(tamper)).stdout, 'done\n');
    // Back to back: the check of the copy after the tampering run may not have happened yet.
    assert.equal((await runner.run(hello)).stdout, 'sh x\n', 'the next run saw the tampered copy');
    await runner.run(tamper);
    await runner.idle();
    // After a pause: the check after the run found the change, so this run does not trust the copy.
    assert.equal((await runner.run(hello)).stdout, 'sh x\n', 'a later run saw the tampered copy');
    await runner.idle();
    assert.equal((await runner.run(hello)).stdout, 'sh x\n');
    assert.equal(fs.readFileSync(path.join(sb.skillRoot, 'scripts', 'hello.sh'), 'utf8').includes('tampered'), false);
  });

  describe('sandbox (bubblewrap)', () => {
    before(function () {
      if (!onPath('bwrap')) {
        console.log('      skipped: bwrap is not installed (apt-get install bubblewrap)');
        this.skip();
      }
    });

    it('blocks the network and writes to the skill, allows writes to out/', async () => {
      const runner = sb.runner({ sandbox: 'required' });
      // A listener on the host's loopback, outside the sandbox's network namespace: reachable without isolation.
      const server = net.createServer((c) => c.end('host-listener\n'));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const port = String((server.address() as net.AddressInfo).port);
      try {
        const open = await sb.runner({ sandbox: 'off' }).run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/net.py', args: [port], timeoutMs: 10000 });
        assert.match(open.stdout, /network: reachable host-listener/, 'the probe itself reaches the listener without a sandbox');
        const r = await runner.run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/net.py', args: [port], timeoutMs: 10000 });
        assert.equal(r.sandboxed, true);
        assert.equal(r.execution_mode, 'sandbox');
        assert.match(r.stdout, /network: blocked/, r.stdout + r.stderr);
      } finally {
        server.close();
      }
      const w = await runner.run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/write_self.sh' });
      assert.doesNotMatch(w.stdout, /wrote-script|wrote-root/);
      assert.match(w.stderr, /Read-only file system/);
      assert.match(w.stdout, /wrote-out/);
    });

    it('cannot write outside the workspace', async () => {
      // sb.tmp holds the state folder, so the sandbox has that path too, on its private /tmp: the write
      // may succeed in there, never on the host.
      const target = path.join(sb.tmp, 'host-file.txt');
      const r = await sb.runner({ sandbox: 'required' }).run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, command: `echo x > ${target}; echo y > /usr/host-file.txt` });
      assert.notEqual(r.exit_code, 0);
      assert.match(r.stderr, /Read-only file system/);
      assert.ok(!fs.existsSync(target));
    });

    it('times out inside the sandbox too', async () => {
      const r = await sb.runner({ sandbox: 'required', killGraceMs: 200 }).run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/fork_hang.sh', timeoutMs: 400 });
      assert.equal(r.timed_out, true);
    });
  });
});
