import * as assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readRegularFileSync, readSmallFileSync, STAMPLESS_MAX_BYTES, UnreadableFileError } from '../../../src/core/os/readRegularFile';

/** The stampless read (a cold registry scan) must answer every hostile file as the stamped read does, and never block. */
describe('readSmallFileSync (a read without the stamp, one system call fewer)', function () {
  this.timeout(30_000);
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'small-read-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const write = (name: string, bytes: Buffer | string): string => {
    const f = path.join(dir, name);
    fs.writeFileSync(f, bytes);
    return f;
  };
  const refusal = (fn: () => unknown): UnreadableFileError => {
    try {
      fn();
    } catch (e) {
      if (e instanceof UnreadableFileError) return e;
      throw e;
    }
    assert.fail('expected a refusal');
  };

  it('reads a small file whole without a stamp, and anything larger or empty with its stamp, as the stamped read does', () => {
    for (const size of [1, 200, STAMPLESS_MAX_BYTES, STAMPLESS_MAX_BYTES + 1, 100_000, 0]) {
      const f = write(`f${size}`, Buffer.alloc(size, 'x'));
      const small = readSmallFileSync(f, 1 << 20);
      const full = readRegularFileSync(f, 1 << 20);
      assert.deepEqual(small.bytes, full.bytes, `${size} bytes`);
      assert.equal(small.size, size);
      assert.equal(Number.isNaN(small.mtimeMs), size > 0 && size <= STAMPLESS_MAX_BYTES, `stamp asked for ${size} bytes`);
      if (!Number.isNaN(small.mtimeMs)) assert.equal(small.mtimeMs, full.mtimeMs);
    }
  });

  it('refuses what the stamped read refuses, with the same message: a folder, an oversized file, a device', () => {
    fs.mkdirSync(path.join(dir, 'folder'));
    for (const [f, max] of [[path.join(dir, 'folder'), 1 << 20], [write('big', 'y'.repeat(300)), 100], ['/dev/zero', 1 << 20], ['/dev/null', 1 << 20]] as const) {
      if (!fs.existsSync(f)) continue;
      const a = refusal(() => readSmallFileSync(f, max));
      const b = refusal(() => readRegularFileSync(f, max));
      assert.deepEqual([a.code, a.message], [b.code, b.message], f);
    }
  });

  /**
   * A FIFO at `name`, held open for writing by a shell (read-write: its open does not wait for a reader) that first
   * runs `feed` (with the pipe on fd 3); resolves once the shell is past it. The deadline counts from the shell's start.
   */
  async function heldFifo(name: string, feed: string): Promise<{ fifo: string; stop: () => void }> {
    const fifo = path.join(dir, name);
    execFileSync('mkfifo', [fifo]);
    const ready = `${fifo}.ready`;
    const shell = spawn('sh', ['-c', `exec 3<>"${fifo}"; ${feed}; : > "${ready}"; sleep 30`], { stdio: 'ignore' });
    const deadline = Date.now() + 10_000;
    while (!fs.existsSync(ready) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    if (!fs.existsSync(ready)) {
      shell.kill('SIGKILL');
      assert.fail(`the writer of ${name} never got past opening it`);
    }
    return { fifo, stop: () => shell.kill('SIGKILL') };
  }

  const refusesPipe = (fifo: string): void => assert.match(refusal(() => readSmallFileSync(fifo, 1 << 20)).message, /is a named pipe \(FIFO\), not a regular file/);

  it('never blocks on a FIFO, with or without a writer that holds it open', async function () {
    if (process.platform === 'win32') {
      console.log('      skipped: FIFOs made with mkfifo do not exist on Windows');
      this.skip();
    }
    const lone = path.join(dir, 'pipe');
    execFileSync('mkfifo', [lone]);
    refusesPipe(lone);
    // A writer that wrote nothing: a blocking read would wait for it for ever.
    const held = await heldFifo('held', ':');
    try {
      refusesPipe(held.fifo);
    } finally {
      held.stop();
    }
  });

  it('refuses a FIFO that a running process feeds, with a little or more than the stampless limit (a read at an offset fails on a pipe)', async function () {
    if (process.platform === 'win32') {
      console.log('      skipped: FIFOs made with mkfifo do not exist on Windows');
      this.skip();
    }
    // More than the stampless limit, and a few bytes: the first read is at offset 0 (pread), which a pipe refuses
    // (ESPIPE), so the stamped read decides either way.
    for (const [name, feed] of [['fed-big', `head -c ${STAMPLESS_MAX_BYTES + 10} /dev/zero >&3`], ['fed-small', 'printf hello >&3']]) {
      const fed = await heldFifo(name, feed);
      try {
        refusesPipe(fed.fifo);
      } finally {
        fed.stop();
      }
    }
  });
});
