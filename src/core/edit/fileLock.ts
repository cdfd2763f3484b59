import { promises as fs } from 'node:fs';
import { EditError } from './errors';
import { processAlive } from '../os/processAlive';

/** Options of {@link withFileLock}. */
export interface FileLockOptions {
  /** How long to wait for another process's lock before giving up (ms, default 10 000). */
  timeoutMs?: number;
  /** A lock older than this is taken over even when its process still runs (a stuck writer; ms, default 30 000). */
  staleMs?: number;
}

/** A lock without a pid this old was left by a process killed between creating it and writing its pid. */
const NO_PID_GRACE_MS = 2000;


/** Why the lock at `lockPath` may be removed, or undefined while its holder may still use it. */
async function staleReason(lockPath: string, staleMs: number): Promise<string | undefined> {
  let text: string;
  let mtimeMs: number;
  try {
    [text, mtimeMs] = await Promise.all([fs.readFile(lockPath, 'utf8'), fs.stat(lockPath).then((s) => s.mtimeMs)]);
  } catch (e) {
    // Gone between our attempt and now: try again at once. A lock being written has no pid yet: wait.
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'released' : undefined;
  }
  const pid = Number.parseInt(text, 10);
  const age = Date.now() - mtimeMs;
  if (Number.isInteger(pid) && pid > 0) {
    if (pid !== process.pid && !processAlive(pid)) return `process ${pid} that held it is gone`;
  } else if (age > NO_PID_GRACE_MS) {
    // Its maker writes the pid right after creating it: it was killed in between.
    return 'it names no process';
  }
  if (age > staleMs) return `it is ${Math.round(age / 1000)} s old`;
  return undefined;
}

/**
 * Runs `fn` while holding a lock file (created exclusively, holding our pid), so that processes sharing a
 * folder (two VS Code windows over one global storage) take turns. A lock left by a process that is gone
 * (killed during a write), or older than `staleMs`, is taken over. Waits with growing pauses up to
 * `timeoutMs`, then throws STORE_BUSY naming the lock and its holder.
 */
export async function withFileLock<T>(lockPath: string, fn: () => Promise<T>, options: FileLockOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const staleMs = options.staleMs ?? 30_000;
  const started = Date.now();
  let pause = 2;
  for (;;) {
    try {
      const handle = await fs.open(lockPath, 'wx');
      try {
        await handle.writeFile(`${process.pid}\n`);
      } finally {
        await handle.close();
      }
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const stale = await staleReason(lockPath, staleMs);
    if (stale) {
      if (stale !== 'released') await fs.rm(lockPath, { force: true });
      continue;
    }
    if (Date.now() - started > timeoutMs) {
      const holder = await fs.readFile(lockPath, 'utf8').catch(() => '?');
      throw new EditError(
        'STORE_BUSY',
        `${lockPath} has been held by process ${holder.trim() || '?'} for over ${Math.round(timeoutMs / 1000)} s; another window may be writing. Try again, or delete the lock file if no other VS Code window or agent-skills command is running.`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, pause + Math.random() * pause));
    pause = Math.min(pause * 2, 50);
  }
  try {
    return await fn();
  } finally {
    await fs.rm(lockPath, { force: true });
  }
}
