// The quick atomic write (writeFileAtomic with durable: false, the state folder's session saves) fills a spare file
// made ahead in the background (src/core/os/spareFiles.ts) and renames it into place. Checked on real files: the
// spare's own inode becomes the target; a spare replaced by a link, a FIFO or a second name of another file is
// neither written nor renamed into place; bytes put in a spare do not survive; spares go at exit, and those of a
// killed process are removed by the next process that keeps spares in the folder.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import { writeFileAtomic } from '../../../src/core/edit';
import { sparesReady } from '../../../src/core/os/spareFiles';
import { makeTempDir } from '../../support/tempDir';

const SPARE = /^\.spare\.tmp-(\d+)-[0-9a-z]+$/;
const sparesOf = (dir: string, pid = process.pid) => fs.readdirSync(dir).filter((n) => SPARE.exec(n)?.[1] === String(pid)).sort();

/** Waits (deadline 10 s) until `ready` holds: spares are made on the thread pool after a write. */
async function until(what: string, ready: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`not within 10 s: ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}

describe('edit/spareFiles: the quick atomic write renames a spare made ahead', function () {
  this.timeout(60_000);
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = makeTempDir('spare-files-')));
  afterEach(() => cleanup());

  /** A first quick write into `folder` (made), and the two spares it starts, ready. */
  async function primed(folder: string): Promise<string[]> {
    fs.mkdirSync(folder, { recursive: true });
    await writeFileAtomic(path.join(folder, 'first.json'), 'first', { durable: false });
    await until('two spares ready', () => sparesReady(folder) === 2);
    const spares = sparesOf(folder);
    assert.equal(spares.length, 2, `the ready spares are in the folder: ${spares}`);
    return spares;
  }

  it('a write takes a ready spare: its inode becomes the target, with the bytes written; no temp file is made', async () => {
    const spares = await primed(dir);
    const inodes = new Set(spares.map((n) => fs.statSync(path.join(dir, n)).ino));
    const target = path.join(dir, 'state.json');
    await writeFileAtomic(target, '{"v":1}', { durable: false });
    assert.equal(fs.readFileSync(target, 'utf8'), '{"v":1}');
    assert.ok(inodes.has(fs.statSync(target).ino), 'the target is one of the spares made before the write');
    assert.deepEqual(fs.readdirSync(dir).filter((n) => n.includes('.tmp-') && !SPARE.test(n)), [], 'no temp file of its own');
    // A write wanting another mode than the spares' makes its own temp file.
    const own = path.join(dir, 'private.json');
    await writeFileAtomic(own, 'x', { durable: false, mode: 0o600 });
    assert.equal(fs.statSync(own).mode & 0o777, 0o600 & ~process.umask());
    assert.ok(!inodes.has(fs.statSync(own).ino));
  });

  it('a spare replaced by a link, a FIFO or a second name of a file is not written, not renamed into place; bytes put in a spare are not kept', async () => {
    const victim = path.join(dir, 'victim.txt');
    fs.writeFileSync(victim, 'keep me');
    for (const plant of ['symlink', 'hardlink', 'fifo', 'junk'] as const) {
      const folder = path.join(dir, plant);
      const spares = await primed(folder);
      for (const n of spares) {
        const p = path.join(folder, n);
        fs.rmSync(p);
        if (plant === 'symlink') fs.symlinkSync(victim, p);
        else if (plant === 'hardlink') fs.linkSync(victim, p);
        else if (plant === 'fifo') assert.equal(spawnSync('mkfifo', [p]).status, 0, 'mkfifo');
        else fs.writeFileSync(p, 'x'.repeat(4096));
      }
      const target = path.join(folder, 'state.json');
      await writeFileAtomic(target, '{"v":2}', { durable: false });
      assert.equal(fs.readFileSync(victim, 'utf8'), 'keep me', `${plant}: the victim is unchanged`);
      const st = fs.lstatSync(target);
      assert.ok(st.isFile() && st.nlink === 1, `${plant}: the target is a file of its own`);
      assert.equal(fs.readFileSync(target, 'utf8'), '{"v":2}', `${plant}: the target holds exactly what was written`);
      // The planted junk was a spare's name holding a plain file: taken, emptied and used. The others are left alone.
      if (plant === 'junk') assert.ok(spares.map((n) => path.join(folder, n)).some((p) => !fs.existsSync(p)), 'a junk-filled spare was used');
      else assert.ok(spares.every((n) => fs.lstatSync(path.join(folder, n))), `${plant}: the planted files are left where they were`);
    }
  });

  it("spares go when the process exits; a killed process's are removed by the next process keeping spares in the folder", async () => {
    const script = path.join(dir, 'writer.js');
    buildSync({
      stdin: {
        contents: `import { writeFileAtomic } from './src/core/os/atomicFile'; import * as fs from 'node:fs';
          const [folder, end] = process.argv.slice(2);
          const spares = () => fs.readdirSync(folder).filter((n) => n.startsWith('.spare.tmp-' + process.pid + '-')).length;
          writeFileAtomic(folder + '/x.json', 'x', { durable: false }).then(function wait() {
            if (spares() < 2) return void setImmediate(wait);
            process.stdout.write('ready');
            if (end === 'kill') process.kill(process.pid, 'SIGKILL');
          });`,
        resolveDir: path.resolve(__dirname, '../../..'),
        loader: 'ts',
      },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      outfile: script,
      logLevel: 'silent',
    });
    const folder = path.join(dir, 'state');
    fs.mkdirSync(folder);
    const run = (end: 'exit' | 'kill') => {
      const r = spawnSync(process.execPath, [script, folder, end], { encoding: 'utf8', timeout: 30_000 });
      assert.equal(r.stdout, 'ready', `the ${end} child made its spares: ${r.stderr}`);
      return r.pid as number;
    };
    const exited = run('exit');
    assert.deepEqual(sparesOf(folder, exited), [], 'a process that exits removes its spares');
    const killed = run('kill');
    assert.equal(sparesOf(folder, killed).length, 2, 'a killed process leaves its spares');
    // A process still running keeps its own: only a gone process's are removed.
    const alive = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      const theirs = path.join(folder, `.spare.tmp-${alive.pid}-0`);
      fs.writeFileSync(theirs, '');
      await writeFileAtomic(path.join(folder, 'y.json'), 'y', { durable: false });
      await until("the killed process's spares removed", () => sparesOf(folder, killed).length === 0);
      assert.ok(fs.existsSync(theirs), "a running process's spare is left alone");
    } finally {
      alive.kill('SIGKILL');
    }
  });
});
