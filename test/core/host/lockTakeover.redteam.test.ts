// A lock held past `staleMs` is taken over (a stuck writer must not block every other one for ever). The holder it
// was taken from still ends one day, and its release removed the lock by name: the new holder's lock. A third process
// then took the lock while the new holder was still writing, so two wrote at once (the failure mode of
// revisionStoreProcesses: one seq given to two records). A release now removes only the lock it made. The lock is aged
// by setting its time back, so no test waits for staleMs to pass. Both kinds of lock file: a pid file made per lock
// (in one process), and a link to the process's kept owner file (the state folder's; across two processes, since one
// process's locks all link to one file).
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { once } from 'node:events';
import { withFileLock } from '../../../src/core/host/fileLock';
import { removeTempDir } from '../../support/tempDir';

const LOCK_MODULE = path.resolve(__dirname, '../../../src/core/host/fileLock.ts');

/** Sets the lock's time a minute back, past any staleMs below. */
function age(lock: string): void {
  const old = new Date(Date.now() - 60_000);
  fs.utimesSync(lock, old, old);
}

describe("file lock: a holder taken over as stuck does not free the next holder's lock (red team)", function () {
  this.timeout(120_000);
  let dir = '';
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lock-takeover-'))));
  afterEach(() => removeTempDir(dir));

  it("a pid file per lock: the first holder ends while the second holds; the lock stays the second's until it ends", async () => {
    const lock = path.join(dir, 'log.lock');
    let endFirst!: () => void;
    let firstHolds!: () => void;
    const holding = new Promise<void>((r) => (firstHolds = r));
    const first = withFileLock(lock, () => new Promise<void>((r) => ((endFirst = r), firstHolds())), { staleMs: 1000 });
    await holding;
    age(lock);
    const second = withFileLock(
      lock,
      async () => {
        const mine = fs.readFileSync(lock, 'utf8');
        endFirst();
        await first;
        assert.ok(fs.existsSync(lock), "the first holder's release removed the second holder's lock");
        assert.equal(fs.readFileSync(lock, 'utf8'), mine);
        return 'second ran';
      },
      { staleMs: 1000 },
    );
    assert.equal(await second, 'second ran');
    assert.ok(!fs.existsSync(lock), 'the second holder removed its own lock');
  });

  it('a link to the kept owner file: a holder in another process ends while this one holds; the lock stays', async () => {
    const lock = path.join(dir, 'k.json.lock');
    const program = `
      const { withFileLock } = require(${JSON.stringify(LOCK_MODULE)});
      withFileLock(${JSON.stringify(lock)}, () => new Promise((done) => {
        console.log('held');
        process.stdin.once('data', () => done());
      }), { keepOwnerFile: true }).then(() => console.log('released'), (e) => console.log('failed: ' + e.message));
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', program], { cwd: path.resolve(__dirname, '../../..'), stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    const said = (word: string) =>
      new Promise<void>((resolve, reject) => {
        const check = () => (out.includes(word) ? resolve() : undefined);
        child.stdout!.on('data', (c) => ((out += c), check()));
        child.on('close', () => (out.includes(word) ? resolve() : reject(new Error(`the holder exited without saying ${word}: ${out}`))));
        check();
      });
    try {
      await said('held');
      age(lock);
      const result = await withFileLock(
        lock,
        async () => {
          const mine = fs.lstatSync(lock).ino;
          child.stdin!.write('end\n');
          await said('released');
          assert.ok(fs.existsSync(lock), "the other process's release removed this process's lock");
          assert.equal(fs.lstatSync(lock).ino, mine);
          return 'ran';
        },
        { keepOwnerFile: true, staleMs: 1000 },
      );
      assert.equal(result, 'ran');
      assert.ok(!fs.existsSync(lock));
    } finally {
      if (child.exitCode === null) {
        child.kill('SIGKILL');
        await once(child, 'close');
      }
    }
  });
});
