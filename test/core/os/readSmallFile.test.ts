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

  it('never blocks on a FIFO, with or without a writer that holds it open', async function () {
    if (process.platform === 'win32') {
      console.log('      skipped: FIFOs made with mkfifo do not exist on Windows');
      this.skip();
    }
    const fifo = path.join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    assert.match(refusal(() => readSmallFileSync(fifo, 1 << 20)).message, /is a named pipe \(FIFO\), not a regular file/);
    // A process that holds the pipe open for writing (read-write: its open does not wait for a reader) and writes
    // nothing: a blocking read would wait for it for ever.
    const ready = path.join(dir, 'writer-ready');
    const writer = spawn('sh', ['-c', `exec 3<>"${fifo}"; : > "${ready}"; sleep 30`], { stdio: 'ignore' });
    try {
      const deadline = Date.now() + 10_000; // counted from the writer's start, waiting for its open
      while (!fs.existsSync(ready) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      assert.ok(fs.existsSync(ready), 'the writer never opened the pipe');
      assert.match(refusal(() => readSmallFileSync(fifo, 1 << 20)).message, /is a named pipe \(FIFO\), not a regular file/);
    } finally {
      writer.kill('SIGKILL');
    }
  });

  it('refuses a FIFO that a running process feeds, with a little or more than the stampless limit (a read at an offset fails on a pipe)', async function () {
    if (process.platform === 'win32') {
      console.log('      skipped: FIFOs made with mkfifo do not exist on Windows');
      this.skip();
    }
    const fifo = path.join(dir, 'fed');
    execFileSync('mkfifo', [fifo]);
    const ready = path.join(dir, 'fed-ready');
    // Feeds more than the stampless limit: the read then falls back to the stamped one, which refuses the pipe.
    const big = spawn('sh', ['-c', `exec 3<>"${fifo}"; head -c ${STAMPLESS_MAX_BYTES + 10} /dev/zero >&3; : > "${ready}"; sleep 30`], { stdio: 'ignore' });
    try {
      const deadline = Date.now() + 10_000;
      while (!fs.existsSync(ready) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      assert.ok(fs.existsSync(ready), 'the writer never fed the pipe');
      assert.match(refusal(() => readSmallFileSync(fifo, 1 << 20)).message, /is a named pipe \(FIFO\)/);
    } finally {
      big.kill('SIGKILL');
    }
    // A few bytes fed: the first read is at offset 0 (pread), which a pipe refuses (ESPIPE), so the stamped read decides.
    const small = path.join(dir, 'fed-small');
    execFileSync('mkfifo', [small]);
    const smallReady = path.join(dir, 'fed-small-ready');
    const feeder = spawn('sh', ['-c', `exec 3<>"${small}"; printf hello >&3; : > "${smallReady}"; sleep 30`], { stdio: 'ignore' });
    try {
      const deadline = Date.now() + 10_000;
      while (!fs.existsSync(smallReady) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      assert.match(refusal(() => readSmallFileSync(small, 1 << 20)).message, /is a named pipe \(FIFO\)/);
    } finally {
      feeder.kill('SIGKILL');
    }
  });
});
