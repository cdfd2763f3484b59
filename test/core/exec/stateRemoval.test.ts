// The runner's state holds read-only folders (the copies of skills, each run's staged skill). Whoever owns
// it, root or not, the runner must still replace and prune them: root ignores permission bits, so these
// tests matter in the unprivileged pass of npm test, where they run as an ordinary account.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { removeTempDir } from '../../support/tempDir';
import { setup, type Sandbox } from './helpers';

const who = process.getuid?.() === 0 ? 'root' : `uid ${process.getuid?.()}`;

describe(`core/exec: the runner's state stays removable by its owner (as ${who})`, () => {
  let sb: Sandbox;
  beforeEach(() => {
    sb = setup();
  });
  afterEach(() => removeTempDir(sb.tmp));

  const keyDirs = () => fs.readdirSync(path.join(sb.stateDir, 'skills')).map((k) => path.join(sb.stateDir, 'skills', k));
  const run = (runner: ReturnType<Sandbox['runner']>, command: string) => runner.run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, command });

  it('replaces the read-only copy of an edited skill and removes the old one', async () => {
    const runner = sb.runner();
    assert.equal((await run(runner, 'true')).exit_code, 0);
    const [keyDir] = keyDirs();
    const first = fs.readdirSync(keyDir).filter((n) => !n.endsWith('.json'));
    assert.equal(first.length, 1);
    fs.writeFileSync(path.join(sb.skillRoot, 'added.txt'), 'new\n');
    const r = await run(runner, 'cat added.txt');
    assert.equal(r.stdout, 'new\n', r.stderr);
    const now = fs.readdirSync(keyDir).filter((n) => !n.endsWith('.json'));
    assert.equal(now.length, 1);
    assert.notEqual(now[0], first[0], 'a new copy was made');
    assert.ok(!fs.existsSync(path.join(keyDir, first[0])), 'the old read-only copy is gone');
    await runner.idle();
  });

  it('removes a staging folder abandoned by a process that died while copying, and keeps a fresh one', async () => {
    const runner = sb.runner();
    await run(runner, 'true');
    const [keyDir] = keyDirs();
    const lockedStaging = (name: string, ageMs: number): string => {
      const dir = path.join(keyDir, name);
      fs.mkdirSync(path.join(dir, 'tree', 'scripts'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'tree', 'scripts', 'x.sh'), 'true\n');
      fs.chmodSync(path.join(dir, 'tree', 'scripts'), 0o555);
      const then = new Date(Date.now() - ageMs);
      fs.utimesSync(dir, then, then);
      return dir;
    };
    const old = lockedStaging('.tmp-died', 2 * 60 * 60_000);
    const fresh = lockedStaging('.tmp-copying', 0);
    fs.writeFileSync(path.join(sb.skillRoot, 'edit.txt'), 'a new version makes a new copy\n');
    assert.equal((await run(runner, 'true')).exit_code, 0);
    assert.ok(!fs.existsSync(old), 'the abandoned staging folder (read-only inside) was removed');
    assert.ok(fs.existsSync(fresh), 'a staging folder another process may be filling now is kept');
    await runner.idle();
  });

  it('prunes old run folders even when their script locked its own folders', async () => {
    const runner = sb.runner({ keepRuns: 1 });
    // An owner's script can make its folders unreadable and unwritable; pruning must still remove them.
    const first = await run(runner, 'mkdir -p out/locked/deeper && echo x > out/locked/deeper/f && chmod 000 out/locked/deeper && chmod 500 out/locked && chmod 500 out work');
    assert.equal(first.exit_code, 0, first.stderr);
    await runner.idle();
    const second = await run(runner, 'true');
    await runner.idle();
    assert.deepEqual(fs.readdirSync(path.join(sb.stateDir, 'runs')), [second.run_id], 'only the newest run is kept');
  });

  it("removes the spare workspace of a runner whose process is gone", async () => {
    const runner = sb.runner();
    await run(runner, 'true');
    await runner.idle();
    // A spare as a process that died would leave it: read-only staged skill inside.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    const orphan = path.join(sb.stateDir, 'spares', `${dead}-abcdef`);
    fs.mkdirSync(path.join(orphan, 'skills', 'exec-demo'), { recursive: true });
    fs.chmodSync(path.join(orphan, 'skills', 'exec-demo'), 0o555);
    fs.chmodSync(path.join(orphan, 'skills'), 0o555);
    // A new runner (a new process, as far as the state folder knows) sweeps once, when it builds its first spare.
    const next = sb.runner();
    await run(next, 'true');
    await next.idle();
    assert.ok(!fs.existsSync(orphan), 'the dead process\'s spare was removed');
  });
});
