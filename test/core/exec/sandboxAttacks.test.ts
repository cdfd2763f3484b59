// Attacks on the bubblewrap sandbox (issue 11, points 2-4). Each ran through before the change: as root the
// script kept its capabilities and remounted / read-write; / was bound whole, so ~/.ssh and the host's /tmp
// sockets were reachable. Run as root and as an unprivileged user.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { cleanup, processesWithArg, sandboxWorks, setup, uniqueSleep, waitFor, type Sandbox } from './helpers';

describe('core/exec sandbox attacks (bubblewrap)', function () {
  let sb: Sandbox;
  const tag = randomBytes(4).toString('hex');
  before(async function () {
    sb = setup();
    if (!(await sandboxWorks(sb))) this.skip();
  });
  after(() => cleanup(sb));

  const run = (command: string, extra: { timeoutMs?: number; skillRoot?: string; skillName?: string } = {}) =>
    sb.runner({ sandbox: 'required', killGraceMs: 200 }).run({ skillName: extra.skillName ?? 'exec-demo', skillRoot: extra.skillRoot ?? sb.skillRoot, command, timeoutMs: extra.timeoutMs ?? 15000 });

  it('has no capabilities, an unprivileged uid and no_new_privs: remounting / and writing outside the workspace fail', async () => {
    const usrTarget = `/usr/agent-skills-attack-${tag}`;
    const skillTarget = path.join(sb.skillRoot, `pwned-${tag}`);
    const r = await run(
      [
        'mount -o remount,rw / 2>/dev/null; echo "remount=$?"',
        "grep -E '^(CapEff|CapPrm|CapBnd|NoNewPrivs):' /proc/self/status",
        'echo "uid=$(id -u)"',
        `touch ${usrTarget} 2>/dev/null; echo "usr=$?"`,
        `touch ${skillTarget} 2>/dev/null; echo "skill=$?"`,
        `echo x > /etc/passwd 2>/dev/null; echo "passwd=$?"`,
      ].join('\n'),
    );
    try {
      assert.equal(r.sandboxed, true);
      assert.doesNotMatch(r.stdout, /^remount=0$/m, r.stdout);
      for (const cap of ['CapEff', 'CapPrm', 'CapBnd']) assert.match(r.stdout, new RegExp(`^${cap}:\\s+0+$`, 'm'), r.stdout);
      assert.match(r.stdout, /^NoNewPrivs:\s+1$/m);
      assert.doesNotMatch(r.stdout, /^uid=0$/m);
      assert.doesNotMatch(r.stdout, /^(usr|skill|passwd)=0$/m, r.stdout);
      assert.equal(fs.existsSync(usrTarget), false, 'wrote into the host /usr');
      assert.equal(fs.existsSync(skillTarget), false, 'wrote into the skill folder');
    } finally {
      fs.rmSync(usrTarget, { force: true });
      fs.rmSync(skillTarget, { force: true });
    }
  });

  it('does not show the home folder, the host /tmp and its sockets, /run, or the rest of the state folder', async () => {
    const sshDir = path.join(os.homedir(), '.ssh');
    const madeSsh = !fs.existsSync(sshDir);
    fs.mkdirSync(sshDir, { recursive: true, mode: 0o700 });
    const key = path.join(sshDir, `id_test_${tag}`);
    fs.writeFileSync(key, `secret-key-${tag}\n`, { mode: 0o600 });
    const sock = path.join('/tmp', `agent-skills-attack-${tag}.sock`);
    const server = net.createServer((c) => c.end('hello from the host\n'));
    await new Promise<void>((resolve) => server.listen(sock, resolve));
    // Another skill's persistent HOME, made by a run of it.
    const other = path.join(sb.tmp, 'other-skill');
    fs.cpSync(sb.skillRoot, other, { recursive: true });
    await run('echo mine > "$HOME/secret"', { skillRoot: other, skillName: 'other-skill' });
    try {
      const r = await run(
        [
          `cat ${key} 2>/dev/null || echo "key: unreadable"`,
          `python3 -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); print(s.recv(100).decode().strip())" ${sock} 2>/dev/null || echo "socket: refused"`,
          'ls -d /run /root /var /opt 2>/dev/null; echo "listed=$?"',
          'ls -A /home 2>/dev/null | sed "s/^/home: /"',
          `ls ${path.join(sb.stateDir, 'deps')} | wc -l | sed 's/^/deps=/'`,
          `ls ${path.join(sb.stateDir, 'runs')} | wc -l | sed 's/^/runs=/'`,
          `ls ${os.tmpdir()} | grep -c agent-skills-attack | sed 's/^/socks=/'`,
        ].join('\n'),
      );
      assert.equal(r.sandboxed, true);
      assert.doesNotMatch(r.stdout, /secret-key/);
      assert.match(r.stdout, /key: unreadable/);
      assert.doesNotMatch(r.stdout, /hello from the host/);
      assert.match(r.stdout, /socket: refused/);
      assert.doesNotMatch(r.stdout, /^\/(run|root|var|opt)$/m, r.stdout);
      // /home is absent, unless the state folder itself lives under it (the unprivileged pass of npm test keeps
      // its temp folders in its account's home): then only the mount point's own path shows, nothing beside it.
      const homeEntries = [...r.stdout.matchAll(/^home: (.*)$/gm)].map((m) => m[1]);
      const stateUnderHome = sb.stateDir.startsWith('/home/') ? [sb.stateDir.split('/')[2]] : [];
      assert.deepEqual(homeEntries, stateUnderHome, r.stdout);
      // Only this skill's dependency folder and this run's folder exist inside.
      assert.match(r.stdout, /^deps=1$/m, r.stdout);
      assert.match(r.stdout, /^runs=1$/m, r.stdout);
      assert.match(r.stdout, /^socks=0$/m, r.stdout);
    } finally {
      server.close();
      fs.rmSync(key, { force: true });
      if (madeSsh) fs.rmSync(sshDir, { recursive: true, force: true });
    }
  });

  it('mounts the staged skill read-only: a script that makes its files writable still cannot change them', async () => {
    // The staged copy's files are read-only by mode, but the script's user owns them (root maps to nobody,
    // which is the runner inside): only the read-only mount stops a chmod then a write.
    const r = await run(
      [
        'chmod -R u+w "$SKILLS_DIR" 2>/dev/null',
        'echo tamper >> "$SKILLS_DIR/$SKILL_NAME/scripts/hello.sh" 2>/dev/null && echo "wrote-script"',
        'echo new > "$SKILLS_DIR/$SKILL_NAME/new-file.txt" 2>/dev/null && echo "wrote-new"',
        'awk -v d="$SKILLS_DIR" \'$5 == d { print "mount-options=" $6 }\' /proc/self/mountinfo',
        'echo ok > "$OUTPUT_DIR/fine.txt" && echo "wrote-out"',
      ].join('\n'),
    );
    assert.equal(r.sandboxed, true);
    assert.doesNotMatch(r.stdout, /wrote-script|wrote-new/, r.stdout);
    assert.match(r.stdout, /^mount-options=ro[,\n]/m, r.stdout);
    assert.match(r.stdout, /wrote-out/, 'the run folder itself stays writable');
  });

  it("shows the user's kernel keys nowhere: /proc/keys and /proc/key-users read empty", async () => {
    const r = await run('for f in /proc/keys /proc/key-users; do echo "$f: $(stat -L -c %F "$f") bytes=$(cat "$f" | wc -c)"; done');
    assert.equal(r.sandboxed, true);
    for (const f of ['/proc/keys', '/proc/key-users']) assert.match(r.stdout, new RegExp(`^${f}: character special file bytes=0$`, 'm'), r.stdout);
  });

  it('still runs python3, bash and node scripts', async () => {
    const runner = sb.runner({ sandbox: 'required' });
    for (const [script, out] of [['scripts/hello.py', 'py a\n'], ['scripts/hello.sh', 'sh a\n'], ['scripts/hello.js', 'js a\n']] as const) {
      const r = await runner.run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script, args: ['a'], timeoutMs: 20000 });
      assert.equal(r.sandboxed, true);
      assert.equal(r.exit_code, 0, `${script}: ${r.stderr}`);
      assert.equal(r.stdout, out);
    }
  });

  it('kills setsid and double-forked processes at the timeout although the sandbox is in a new session', async function () {
    this.timeout(120_000); // the wait for the killed sleeps allows 60 s (it ends as soon as they are gone)
    const z = uniqueSleep();
    const r = await run([`setsid sh -c 'sleep ${z}' </dev/null >/dev/null 2>&1 &`, `(setsid sh -c 'sleep ${z} &' </dev/null >/dev/null 2>&1 &)`, `sleep ${z}`].join('\n'), { timeoutMs: 1500 });
    assert.equal(r.timed_out, true);
    assert.equal(await waitFor(() => processesWithArg(z).length === 0, 60_000), true, `left running: ${processesWithArg(z).join(' ')}`);
  });
});
