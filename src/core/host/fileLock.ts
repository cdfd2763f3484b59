import * as fsSync from 'node:fs';
import { promises as fs } from 'node:fs';
import { StoreBusyError } from './storeBusyError';
import { processAlive } from '../os/processAlive';
import { readRegularFile } from '../os/readRegularFile';

/** Most bytes of a lock read: it holds a pid. A larger file, or no regular file at all, is not a lock this module made. */
const MAX_LOCK_BYTES = 64;

/**
 * The lock's text and mtime; `missing` when it is gone. Read non-blocking and bounded: a FIFO planted at the lock's
 * path would block a plain read for ever, and a link to /dev/zero would never end. Those, and anything else that
 * cannot be read, throw (the lock counts as held, and the wait ends in STORE_BUSY naming it).
 */
async function readLock(lockPath: string): Promise<{ text: string; mtimeMs: number } | 'missing'> {
  try {
    const read = await readRegularFile(lockPath, MAX_LOCK_BYTES);
    return { text: read.bytes.toString('utf8'), mtimeMs: read.mtimeMs };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw e;
  }
}

/** Options of {@link withFileLock}. */
export interface FileLockOptions {
  /** How long to wait for another process's lock before giving up (ms, default 10 000). */
  timeoutMs?: number;
  /** A lock older than this is taken over even when its process still runs (a stuck writer; ms, default 30 000). */
  staleMs?: number;
}

/** A lock without a pid this old was left by a process killed between creating it and writing its pid. */
const NO_PID_GRACE_MS = 2000;

/**
 * What the lock at `lockPath` is now: `free` (released since our attempt: try again at once), `stale` (its
 * process is gone, it names no process past the grace period, or it is older than `staleMs`: remove it), or
 * `held` (its holder may still use it: wait).
 */
async function lockState(lockPath: string, staleMs: number): Promise<'free' | 'stale' | 'held'> {
  let lock: Awaited<ReturnType<typeof readLock>>;
  try {
    lock = await readLock(lockPath);
  } catch {
    return 'held';
  }
  if (lock === 'missing') return 'free';
  const { text, mtimeMs } = lock;
  const pid = Number.parseInt(text, 10);
  const age = Date.now() - mtimeMs;
  if (Number.isInteger(pid) && pid > 0) {
    if (pid !== process.pid && !processAlive(pid)) return 'stale';
  } else if (age > NO_PID_GRACE_MS) {
    // Its maker writes the pid right after creating it: it was killed in between.
    return 'stale';
  }
  return age > staleMs ? 'stale' : 'held';
}

/**
 * Runs `fn` while holding a lock file (created exclusively, holding our pid), so that processes sharing a
 * folder (two VS Code windows over one global storage) take turns. A lock left by a process that is gone
 * (killed during a write), one naming no process (killed before writing its pid), or one older than
 * `staleMs`, is taken over. Waits with growing pauses up to
 * `timeoutMs`, then throws STORE_BUSY naming the lock and its holder.
 */
export async function withFileLock<T>(lockPath: string, fn: () => Promise<T>, options: FileLockOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const staleMs = options.staleMs ?? 30_000;
  const started = Date.now();
  let pause = 2;
  for (;;) {
    // Made and written at once (three system calls, no disk flush to wait for): no round trips through the thread pool.
    try {
      const fd = fsSync.openSync(lockPath, 'wx');
      try {
        fsSync.writeSync(fd, `${process.pid}\n`);
      } finally {
        fsSync.closeSync(fd);
      }
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const state = await lockState(lockPath, staleMs);
    if (state === 'stale') await fs.rm(lockPath, { force: true });
    if (state !== 'held') continue;
    if (Date.now() - started > timeoutMs) {
      const holder = await readLock(lockPath).then((l) => (l === 'missing' ? '?' : l.text), (e: Error) => `? (${e.message})`);
      throw new StoreBusyError(
        `${lockPath} has been held by process ${holder.trim() || '?'} for over ${Math.round(timeoutMs / 1000)} s; another window may be writing. Try again, or delete the lock file if no other VS Code window or agent-skills command is running.`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, pause + Math.random() * pause));
    pause = Math.min(pause * 2, 50);
  }
  try {
    return await fn();
  } finally {
    try {
      fsSync.unlinkSync(lockPath);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
}
