import { randomBytes } from 'node:crypto';
import * as fsSync from 'node:fs';
import * as path from 'node:path';
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
async function readLock(lockPath: string): Promise<{ text: string; mtimeMs: number; id: string } | 'missing'> {
  try {
    const read = await readRegularFile(lockPath, MAX_LOCK_BYTES);
    return { text: read.bytes.toString('utf8'), mtimeMs: read.mtimeMs, id: `${read.dev}:${read.ino}:${read.bytes.toString('utf8')}` };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw e;
  }
}

/** Options of {@link withFileLock}. */
export interface FileLockOptions {
  /**
   * How long one holder may keep the lock while we wait before giving up (ms, default 10 000). The wait restarts
   * when the lock changes hands, up to {@link MAX_WAIT_HOLDERS} times this in all.
   */
  timeoutMs?: number;
  /** A lock older than this is taken over even when its process still runs (a stuck writer; ms, default 30 000). */
  staleMs?: number;
  /** Link the lock to this process's kept pid file of the folder ({@link ownerFile}) instead of a pid file made per lock. */
  keepOwnerFile?: boolean;
}

/** A lock without a pid this old was left by a process killed between creating it and writing its pid. */
const NO_PID_GRACE_MS = 2000;
/** The longest wait in all, in holders' timeouts: processes that keep taking the lock in turn do not starve us for ever. */
const MAX_WAIT_HOLDERS = 6;

/**
 * What the lock at `lockPath` is now: `free` (released since our attempt: try again at once), `stale` (its
 * process is gone, it names no process past the grace period, or it is older than `staleMs`: remove it), or
 * `held` (its holder may still use it: wait), with `holder` telling this lock from the next one (its text and
 * time; a lock that cannot be read is one holder).
 */
async function lockState(lockPath: string, staleMs: number): Promise<{ state: 'free' } | { state: 'stale'; id: string } | { state: 'held'; holder: string }> {
  let lock: Awaited<ReturnType<typeof readLock>>;
  try {
    lock = await readLock(lockPath);
  } catch {
    return { state: 'held', holder: '?' };
  }
  if (lock === 'missing') return { state: 'free' };
  const { text, mtimeMs, id } = lock;
  const pid = Number.parseInt(text, 10);
  const age = Date.now() - mtimeMs;
  if (Number.isInteger(pid) && pid > 0) {
    if (pid !== process.pid && !processAlive(pid)) return { state: 'stale', id };
  } else if (age > NO_PID_GRACE_MS) {
    // Its maker writes the pid right after creating it: it was killed in between.
    return { state: 'stale', id };
  }
  return age > staleMs ? { state: 'stale', id } : { state: 'held', holder: `${text}@${mtimeMs}` };
}

/** The pid files this process keeps, by folder ({@link ownerFile}), with when their mtime was last set; removed when it exits. */
const owners = new Map<string, { file: string; touched: number }>();
/** In this process's kept pid files after its pid: tells its locks from those of an earlier process that had its pid. */
const PROCESS_TOKEN = randomBytes(6).toString('hex');
/**
 * How often a kept pid file's mtime is set again (ms): a lock linked to it is then at most this much older than
 * its taking, far below any `staleMs`, and most locks cost no `utimes` (one system call fewer on a request's path).
 */
const OWNER_TOUCH_MS = 1000;
const OWNER_FILE = /^\.lock-owner-(\d+)$/;

/**
 * This process's pid file in `dir`, which `keepOwnerFile` locks are hard links to, its mtime set to now when it is
 * over {@link OWNER_TOUCH_MS} old (a lock's age is its file's mtime, so a lock taken now is young however old the
 * file is; the other locks of this process in that folder grow young with it, which only a stuck holder that keeps
 * taking locks could abuse). Made at the first such lock in the folder, when the files of processes that are gone
 * are removed; removed at this process's exit (one killed leaves its file, removed by the next process's first lock
 * there). Made again if it went (the folder emptied while this process runs): `lost` says the link found it gone.
 */
function ownerFile(dir: string, lost = false): string {
  const kept = owners.get(dir);
  if (kept && !lost) {
    const now = Date.now();
    // Either way: a clock set back does not leave the file untouched for the time it went back.
    if (Math.abs(now - kept.touched) < OWNER_TOUCH_MS) return kept.file;
    try {
      // The link's own times if something replaced the file with one: never a file it points to.
      fsSync.lutimesSync(kept.file, now / 1000, now / 1000);
      kept.touched = now;
      return kept.file;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  } else if (!kept) {
    for (const name of fsSync.readdirSync(dir)) {
      const pid = OWNER_FILE.exec(name)?.[1];
      if (!pid || Number(pid) === process.pid || processAlive(Number(pid))) continue;
      try {
        unlinkIfPresent(path.join(dir, name));
      } catch {
        // Not a pid file this module made (a folder under that name): tidying it is not worth failing our lock.
      }
    }
  }
  const file = path.join(dir, `.lock-owner-${process.pid}`);
  // Its name is known from the pid: whatever was put there (a symlink written through, a FIFO whose open never returns)
  // is replaced, not opened. Written under a name of our own (created exclusively: no link followed) and renamed over it.
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  fsSync.writeFileSync(temp, `${process.pid}\n${PROCESS_TOKEN}\n`, { flag: 'wx' });
  try {
    fsSync.renameSync(temp, file);
  } catch (e) {
    unlinkIfPresent(temp);
    throw e;
  }
  if (owners.size === 0) process.once('exit', removeOwnersAtExit);
  owners.set(dir, { file, touched: Date.now() });
  return file;
}

/** Removes a pid file (ours once it is linked, or a gone process's): one unlink, nothing to do when it is gone. */
function unlinkIfPresent(file: string): void {
  try {
    fsSync.unlinkSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}

/** Opening a lock to tell which it is: never through a link, never waiting on a FIFO. */
const LOCK_OPEN = fsSync.constants.O_RDONLY | fsSync.constants.O_NOFOLLOW | fsSync.constants.O_NONBLOCK;

/**
 * Which lock is at `lockPath`: its device, inode and text (undefined when there is none; `?` for something that is
 * not a lock file this module made). The inode alone does not tell: a lock removed frees its inode, and the next
 * lock made often gets the same number. The text does: a pid file made per lock holds a random token, a kept owner
 * file one per process (so one process's locks of one path are not told apart: they are taken in turn within it).
 */
function lockId(lockPath: string): string | undefined {
  let fd: number;
  try {
    fd = fsSync.openSync(lockPath, LOCK_OPEN);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : '?';
  }
  try {
    const st = fsSync.fstatSync(fd);
    if (!st.isFile() || st.size > MAX_LOCK_BYTES) return '?';
    const bytes = Buffer.alloc(MAX_LOCK_BYTES);
    const n = fsSync.readSync(fd, bytes, 0, MAX_LOCK_BYTES, 0);
    return `${st.dev}:${st.ino}:${bytes.subarray(0, n).toString('utf8')}`;
  } catch {
    return '?';
  } finally {
    fsSync.closeSync(fd);
  }
}

/**
 * Removes the lock at `lockPath` only while it is still the file `id` names. A lock judged stale may have been
 * replaced since by a waiter that took it over; a holder that was taken over as stuck (older than `staleMs`) finds
 * another process's lock there when it ends. Removing either by name freed a lock someone else held, and a third
 * process then wrote beside it. The check and the removal are two system calls, so a replacement between them is
 * still possible, but only in that instant, not for the whole time the other holder keeps the lock.
 */
function removeLockIf(lockPath: string, id: string): void {
  if (lockId(lockPath) === id) unlinkIfPresent(lockPath);
}

/** At exit, this process's kept pid files: nothing may throw there (a folder removed with its file is fine). */
function removeOwnersAtExit(): void {
  for (const { file } of owners.values()) {
    try {
      unlinkIfPresent(file);
    } catch {
      // the folder is gone or not ours to change any more: nothing to clean
    }
  }
}

/**
 * Creates the lock holding our pid, or returns false when it exists. The pid is written to a file of our own first
 * and linked to the lock's name (which fails when the name exists), so the lock never exists without its pid: made
 * empty and written after, a creator paused between the two on a loaded machine (more than the 2 s grace) had its
 * lock taken over as one whose maker was killed, and two processes wrote at once (records of revisionStoreProcesses'
 * four writers were lost). Where the file system has no hard links, it falls back to create-then-write. Synchronous
 * (a few system calls, no disk flush to wait for): no round trips through the thread pool.
 */
function tryCreateLock(lockPath: string, keepOwnerFile = false): boolean {
  if (keepOwnerFile) {
    try {
      try {
        fsSync.linkSync(ownerFile(path.dirname(lockPath)), lockPath);
      } catch (e) {
        // The kept file went since its mtime was last set (the folder emptied): made again, linked again.
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
        fsSync.linkSync(ownerFile(path.dirname(lockPath), true), lockPath);
      }
      return true;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return false;
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS' && code !== 'EMLINK') throw e;
    }
    // No hard links here (or too many): a pid file made for this lock, as below.
  }
  // A name no one can guess, created exclusively: a link planted at a predictable one was written through.
  const token = randomBytes(6).toString('hex');
  const own = `${lockPath}.${process.pid}.${token}.tmp`;
  try {
    fsSync.writeFileSync(own, `${process.pid}\n${token}\n`, { flag: 'wx' });
    try {
      fsSync.linkSync(own, lockPath);
      return true;
    } finally {
      unlinkIfPresent(own);
    }
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw e;
  }
  try {
    const fd = fsSync.openSync(lockPath, 'wx');
    try {
      fsSync.writeSync(fd, `${process.pid}\n${token}\n`);
    } finally {
      fsSync.closeSync(fd);
    }
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    return false;
  }
}

/**
 * Runs `fn` while holding a lock file (created exclusively, holding our pid), so that processes sharing a
 * folder (two VS Code windows over one global storage) take turns. A lock left by a process that is gone
 * (killed during a write), one naming no process (killed before writing its pid), or one older than
 * `staleMs`, is taken over. Waits with growing pauses while one holder keeps it up to `timeoutMs`, then throws
 * STORE_BUSY naming the lock and its holder. The wait restarts when the lock changes hands: several processes
 * taking turns on a loaded machine are progress, not a stuck holder (the lock is not fair: with a timeout counted
 * from the first attempt, a waiter that kept losing the race gave up while every holder kept it only briefly, and
 * the message blamed the last one). In all it waits at most MAX_WAIT_HOLDERS times `timeoutMs`.
 */
export async function withFileLock<T>(lockPath: string, fn: () => Promise<T>, options: FileLockOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const staleMs = options.staleMs ?? 30_000;
  const started = Date.now();
  let holder = '';
  let heldSince = started;
  let pause = 2;
  let ours: string | undefined;
  for (;;) {
    if (tryCreateLock(lockPath, options.keepOwnerFile)) {
      // What the lock is, so that the release removes this lock and never one another process made since.
      ours = lockId(lockPath);
      break;
    }
    const lock = await lockState(lockPath, staleMs);
    if (lock.state === 'stale') removeLockIf(lockPath, lock.id);
    if (lock.state !== 'held') continue;
    const now = Date.now();
    if (lock.holder !== holder) {
      holder = lock.holder;
      heldSince = now;
    }
    const stuck = now - heldSince > timeoutMs;
    if (stuck || now - started > MAX_WAIT_HOLDERS * timeoutMs) {
      const pid = await readLock(lockPath).then((l) => (l === 'missing' ? '?' : l.text), (e: Error) => `? (${e.message})`);
      const why = stuck ? `has been held by process ${pid.trim() || '?'} for over ${Math.round(timeoutMs / 1000)} s` : `has been taken by other processes in turn for over ${Math.round((MAX_WAIT_HOLDERS * timeoutMs) / 1000)} s (now process ${pid.trim() || '?'})`;
      throw new StoreBusyError(`${lockPath} ${why}; another window may be writing. Try again, or delete the lock file if no other VS Code window or agent-skills command is running.`);
    }
    await new Promise((resolve) => setTimeout(resolve, pause + Math.random() * pause));
    pause = Math.min(pause * 2, 50);
  }
  try {
    return await fn();
  } finally {
    // Taken over while fn ran (it outlived staleMs): the lock there now is the next holder's, and stays.
    if (ours !== undefined && ours !== '?') removeLockIf(lockPath, ours);
  }
}
