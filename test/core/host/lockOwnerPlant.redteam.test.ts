// Red team (seventh round, attack23): a state folder's locks are hard links to the process's kept pid file,
// `.lock-owner-<pid>` (fileLock.ts keepOwnerFile; folderStateStore.ts saves every MCP session under one). Its name is
// known from the pid alone. Something planted at that name before the process's first save was written through: a
// symlink there made the save truncate and overwrite the file it points to with the pid, and a FIFO there blocked the
// process for ever in a synchronous open (the whole server, not one save). The lock's own path was already read
// non-blocking for that reason; the owner file was not. Each case runs in a child process (a hang must not hang mocha),
// as root and as an ordinary user.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { removeTempDir } from '../../support/tempDir';

const LOCK = path.resolve(__dirname, '../../../src/core/host/fileLock.ts');

/** A child that plants `plant` at its own `.lock-owner-<pid>` in `dir`, then takes a kept-owner lock there and says what happened. */
function childTakingLock(dir: string, plant: 'symlink' | 'fifo', target: string, keepOwnerFile = true): Promise<{ code: number | null; out: string; hung: boolean }> {
  const program = `
    const fs = require('fs'); const path = require('path'); const { spawnSync } = require('child_process');
    const own = path.join(${JSON.stringify(dir)}, ${keepOwnerFile ? "'.lock-owner-' + process.pid" : "'k.json.lock.' + process.pid + '.tmp'"});
    if (${JSON.stringify(plant)} === 'symlink') fs.symlinkSync(${JSON.stringify(target)}, own);
    else if (spawnSync('mkfifo', [own]).status !== 0) { console.log('no mkfifo'); process.exit(3); }
    const { withFileLock } = require(${JSON.stringify(LOCK)});
    withFileLock(path.join(${JSON.stringify(dir)}, 'k.json.lock'), async () => 'ran', { keepOwnerFile: ${keepOwnerFile}, timeoutMs: 2000 })
      .then((r) => console.log('lock: ' + r), (e) => console.log('lock failed: ' + e.message));
  `;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', program], { cwd: path.resolve(__dirname, '../../..'), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    // A lock takes milliseconds; 60 s is a hang on any load this machine has seen.
    const guard = setTimeout(() => child.kill('SIGKILL'), 60000);
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      resolve({ code, out: out.trim(), hung: signal === 'SIGKILL' });
    });
  });
}

describe('core/host a planted lock owner file (red team)', function () {
  this.timeout(120000);
  let tmp = '';
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lock-owner-'));
  });
  afterEach(() => removeTempDir(tmp));

  it('never writes through a symlink planted at its pid file: the file it points to keeps its bytes', async () => {
    const dir = path.join(tmp, 'handles');
    fs.mkdirSync(dir);
    const victim = path.join(tmp, 'victim.txt');
    fs.writeFileSync(victim, 'precious\n');
    const r = await childTakingLock(dir, 'symlink', victim);
    assert.equal(r.hung, false, `the lock hung: ${r.out}`);
    assert.equal(fs.readFileSync(victim, 'utf8'), 'precious\n', `the planted link was written through: ${r.out}`);
    assert.equal(r.out, 'lock: ran');
  });

  it('never blocks on a FIFO planted at its pid file: the lock is taken (or refused) at once', async function () {
    if (spawnSync('mkfifo', ['--version']).status !== 0) {
      console.log('      skipped: no mkfifo on this machine');
      this.skip();
    }
    const dir = path.join(tmp, 'handles');
    fs.mkdirSync(dir);
    const r = await childTakingLock(dir, 'fifo', '');
    assert.equal(r.hung, false, `the process blocked on the planted FIFO for over 60 s (output: ${r.out || 'none'})`);
    assert.equal(r.out, 'lock: ran');
  });

  it("takes its lock when a gone process's pid file cannot be removed (a folder planted under that name)", async () => {
    const dir = path.join(tmp, 'handles');
    // Above any pid_max Linux allows (2^22): never a live process.
    fs.mkdirSync(path.join(dir, '.lock-owner-4194305', 'x'), { recursive: true });
    const r = await childTakingLock(dir, 'symlink', path.join(tmp, 'nothing'));
    assert.equal(r.out, 'lock: ran');
    assert.ok(fs.existsSync(path.join(dir, '.lock-owner-4194305', 'x')), 'a folder that is not a pid file was removed');
  });

  it("never writes through a symlink planted at a lock's own pid file (<lock>.<pid>.tmp, the locks without a kept owner file)", async () => {
    const dir = path.join(tmp, 'handles');
    fs.mkdirSync(dir);
    const victim = path.join(tmp, 'victim.txt');
    fs.writeFileSync(victim, 'precious\n');
    const r = await childTakingLock(dir, 'symlink', victim, false);
    assert.equal(r.hung, false, `the lock hung: ${r.out}`);
    assert.equal(fs.readFileSync(victim, 'utf8'), 'precious\n', `the planted link was written through: ${r.out}`);
    assert.equal(r.out, 'lock: ran');
  });
});
