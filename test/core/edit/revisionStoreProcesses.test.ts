import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import { withFileLock } from '../../../src/core/host/fileLock';
import { RevisionStore } from '../../../src/core/edit/revisionStore';
import { makeTempDir } from '../../support/tempDir';

const SKILL = 'plugin:acme.tools:shared';

function run(script: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The pid of a process that has exited (so a lock naming it is stale). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

describe('revision store shared by several processes', function () {
  this.timeout(60_000);
  let dir: string;
  let cleanup: () => void;
  let script: string;
  before(() => {
    ({ dir, cleanup } = makeTempDir('revisions-procs-'));
    script = path.join(dir, 'revisionAppender.js');
    buildSync({ entryPoints: [path.join(__dirname, '../../support/revisionAppender.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: script, logLevel: 'silent' });
  });
  after(() => cleanup());

  it('gives every record of four writing processes its own seq, in order, with nothing torn or lost', async () => {
    const root = path.join(dir, 'store-a');
    const per = 40;
    const tags = ['a', 'b', 'c', 'd'];
    const results = await Promise.all(tags.map((t) => run(script, [root, t, String(per)])));
    for (const r of results) assert.equal(r.code, 0, r.stderr);
    const store = new RevisionStore(root);
    const log = await store.read(SKILL);
    assert.equal(log.torn, null);
    assert.deepEqual(log.invalid, []);
    assert.deepEqual(
      log.records.map((r) => r.seq),
      Array.from({ length: tags.length * per }, (_, i) => i + 1),
    );
    for (const t of tags) {
      const mine = log.records.filter((r) => r.file === `notes/${t}.md`);
      assert.equal(mine.length, per, `records of process ${t}`);
      // Each process's records keep its order, and each names the one before it as its previousRef.
      assert.deepEqual(mine.map((r) => r.reason), Array.from({ length: per }, (_, i) => `${t} write ${i}`));
      for (let i = 1; i < mine.length; i++) assert.equal(mine[i].previousRef, mine[i - 1].ref);
      for (const r of mine) assert.ok((await store.content(r))!.toString().startsWith(`${t} `));
    }
    assert.ok(!fs.existsSync(`${store.logPath(SKILL)}.lock`), 'the lock is released');
  });

  it('takes over a lock left by a process that is gone', async () => {
    const root = path.join(dir, 'store-b');
    const store = new RevisionStore(root);
    fs.mkdirSync(path.dirname(store.logPath(SKILL)), { recursive: true });
    // Fresh (younger than staleMs, 30 s): only its dead holder makes it free. Waiting it out would end in STORE_BUSY
    // after the store's lock timeout (10 s), so a pass shows the takeover without timing it.
    fs.writeFileSync(`${store.logPath(SKILL)}.lock`, `${deadPid()}\n`);
    const r = await store.append({ skillId: SKILL, file: 'a.md', content: 'x', reason: 'after a crash' });
    assert.equal(r.seq, 1);
    assert.ok(!fs.existsSync(`${store.logPath(SKILL)}.lock`));
  });

  it('takes over an empty lock (its maker was killed before writing its pid) once it is a few seconds old', async () => {
    const lock = path.join(dir, 'empty.lock');
    fs.writeFileSync(lock, '');
    // Fresh: its maker may be about to write its pid, so it is respected. Its time is set a minute ahead, so no pause
    // of a loaded machine between here and the check can age it past the grace (2 s).
    const ahead = new Date(Date.now() + 60_000);
    fs.utimesSync(lock, ahead, ahead);
    await assert.rejects(withFileLock(lock, async () => 'ran', { timeoutMs: 200 }), (e: Error & { code?: string }) => e.code === 'STORE_BUSY');
    const old = new Date(Date.now() - 5_000);
    fs.utimesSync(lock, old, old);
    assert.equal(await withFileLock(lock, async () => 'ran', { timeoutMs: 200 }), 'ran');
    assert.ok(!fs.existsSync(lock));
  });

  it('waits for a live holder, then says which lock and process keep it busy', async () => {
    const lock = path.join(dir, 'busy.lock');
    // Lives until killed below (a holder that ended by itself during a slow run would free the lock).
    const holder = spawn('sleep', ['600'], { stdio: 'ignore' });
    try {
      fs.writeFileSync(lock, `${holder.pid}\n`);
      let ran = false;
      await assert.rejects(
        withFileLock(lock, async () => (ran = true), { timeoutMs: 300 }),
        (e: Error & { code?: string }) => e.code === 'STORE_BUSY' && e.message.includes(lock) && e.message.includes(String(holder.pid)),
      );
      assert.equal(ran, false);
      // Released by its holder: the next call gets it.
      fs.rmSync(lock);
      assert.equal(await withFileLock(lock, async () => 'ran', { timeoutMs: 300 }), 'ran');
    } finally {
      holder.kill();
    }
  });

  it('takes over a lock older than staleMs even when its process still runs (a stuck writer)', async () => {
    const lock = path.join(dir, 'stuck.lock');
    fs.writeFileSync(lock, `${process.ppid}\n`);
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(lock, old, old);
    assert.equal(await withFileLock(lock, async () => 'ran', { timeoutMs: 300, staleMs: 30_000 }), 'ran');
  });
});
