// Empty files made ahead of time, off a request's path, for the quick atomic write (atomicFile.ts, `durable: false`:
// the state folder's session saves) to write and rename into place. Creating a file is the dearest step of a save on
// ext4: the kernel looks for a free inode and skips those deleted in the last seconds (find_inode_bit,
// recently_deleted), and every save deletes the file it replaces. `perf record` of a loop of creations on this
// machine's /tmp: 0.3 to 0.9 ms of system time each, against 5 us to open a file that exists. A spare is made on the
// thread pool after the write that took the last one, so the next write finds one ready; without one it makes its
// temp file as before. A spare is a temp name (isTempName) of this process: `.spare.tmp-<pid>-<tag>`, removed at
// exit; a killed process's spares are removed by the next process that keeps spares in that folder.
import * as fsSync from 'node:fs';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { processAlive } from './processAlive';
import { tempTag } from './tempTag';

/** The mode spares are made with: a write wanting another one makes its own temp file. */
export const SPARE_MODE = 0o644;
/** Spares kept ready per folder (a second one serves a write that comes before the first refill ends). */
const SPARES_PER_FOLDER = 2;
/** Most folders this process keeps spares in (a state folder's `handles` and `handles/used`); past it, the one unused longest is left. */
const MAX_FOLDERS = 16;
const SPARE_NAME = /^\.spare\.tmp-(\d+)-[0-9a-z]+$/;

interface Pool {
  ready: string[];
  making: number;
  /** A refill is scheduled (setImmediate), not yet started. */
  due: boolean;
}
const pools = new Map<string, Pool>();

/**
 * A spare empty file in `dir` made by this process for a write to fill and rename (it is no longer kept: the caller
 * renames or removes it), or undefined when none is ready. Either way another is made in the background.
 */
export function takeSpare(dir: string): string | undefined {
  let pool = pools.get(dir);
  if (pool) {
    // Most recently used last: the folder left first when there are too many is the one unused longest.
    pools.delete(dir);
    pools.set(dir, pool);
  } else {
    for (const [old, p] of pools) {
      if (pools.size < MAX_FOLDERS) break;
      dropPool(old, p);
    }
    pool = { ready: [], making: 0, due: false };
    if (!exitHooked) {
      exitHooked = true;
      process.once('exit', removeSparesAtExit);
    }
    pools.set(dir, pool);
    void removeGoneProcessesSpares(dir);
  }
  const spare = pool.ready.pop();
  // Started once the current work is done (the write, the answer it is part of): only then, off its path, does
  // the thread pool get the creation. Its setting up alone (the call into fs.promises) cost ~90 us at load 25.
  if (!pool.due) {
    pool.due = true;
    const p = pool;
    setImmediate(() => {
      p.due = false;
      if (pools.get(dir) === p) refill(dir, p);
    });
  }
  return spare;
}

let exitHooked = false;

/** How many spares are ready in `dir` (what a write there would find): for tests, which wait for them. */
export function sparesReady(dir: string): number {
  return pools.get(dir)?.ready.length ?? 0;
}

/** Stops keeping spares in `dir`: its ready ones are removed in the background. */
function dropPool(dir: string, pool: Pool): void {
  if (pools.get(dir) === pool) pools.delete(dir);
  for (const file of pool.ready.splice(0)) void fs.rm(file, { force: true }).catch(() => undefined);
}

/**
 * Makes spares in `dir` on the thread pool up to {@link SPARES_PER_FOLDER}. A spare that cannot be made (the folder
 * went) ends the folder's pool: the next write there makes its temp file, and starts a pool again.
 */
function refill(dir: string, pool: Pool): void {
  while (pool.ready.length + pool.making < SPARES_PER_FOLDER) {
    pool.making++;
    const file = path.join(dir, `.spare.tmp-${tempTag()}`);
    void fs
      .open(file, 'wx', SPARE_MODE)
      .then((h) => h.close())
      .then(
        () => {
          // A pool dropped meanwhile does not keep it.
          if (pools.get(dir) === pool) pool.ready.push(file);
          else void fs.rm(file, { force: true }).catch(() => undefined);
        },
        () => {
          void fs.rm(file, { force: true }).catch(() => undefined);
          dropPool(dir, pool);
        },
      )
      .finally(() => pool.making--);
  }
}

/** Spares of processes that are gone (killed before their exit cleanup), removed once per folder, in the background. */
async function removeGoneProcessesSpares(dir: string): Promise<void> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const pid = SPARE_NAME.exec(name)?.[1];
    if (pid && Number(pid) !== process.pid && !processAlive(Number(pid))) await fs.rm(path.join(dir, name), { force: true }).catch(() => undefined);
  }
}

/** At exit, the spares still ready: nothing may throw there. */
function removeSparesAtExit(): void {
  for (const pool of pools.values()) {
    for (const file of pool.ready) {
      try {
        fsSync.unlinkSync(file);
      } catch {
        // gone with its folder, or not ours to remove any more
      }
    }
  }
}
