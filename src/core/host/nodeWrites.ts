import { constants as fsConstants, promises as fsp, unlinkSync } from 'node:fs';
import * as path from 'node:path';
import { fsyncDir, writeFileAtomic } from '../os/atomicFile';
import { withFileLock } from './fileLock';
import { fileKind } from '../os/readRegularFile';
import type { FileWrites } from './fileWrites';

// Non-blocking: opening a FIFO for writing would wait for a reader for ever (ENXIO instead); a regular file is unaffected.
const APPEND_FLAGS = fsConstants.O_WRONLY | fsConstants.O_APPEND | fsConstants.O_CREAT | (fsConstants.O_NONBLOCK ?? 0);

/** A path an append refuses: not a regular file (a FIFO, a device such as a link to /dev/zero), named with what it is. */
function notAppendable(file: string, kind: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${file} is a ${kind}, not a regular file, so nothing is appended to it. Replace it with a regular file.`), { code: 'ENOTREG', path: file });
}

/**
 * Appends once, to a regular file only (checked on the open descriptor); a new file's folder entry is made durable
 * too when `durable`.
 */
async function appendOnce(file: string, data: string | Uint8Array, durable: boolean): Promise<void> {
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(file, APPEND_FLAGS, 0o666);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENXIO') throw notAppendable(file, 'named pipe (FIFO)');
    throw e;
  }
  let created = false;
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw notAppendable(file, fileKind(st));
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    await handle.writeFile(bytes);
    if (durable) {
      await handle.sync();
      created = (await handle.stat()).size === bytes.length;
    }
  } finally {
    await handle.close();
  }
  if (created) await fsyncDir(path.dirname(file));
}

/** {@link FileWrites} on the local disk: atomic replaces by temp file, fsync and rename; locks by exclusive lock files. */
export const nodeWrites: FileWrites = {
  writeFile: (file, data, options) => writeFileAtomic(file, data, options),
  async appendFile(file, data, options) {
    try {
      await appendOnce(file, data, options?.durable === true);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      await fsp.mkdir(path.dirname(file), { recursive: true });
      await appendOnce(file, data, options?.durable === true);
    }
  },
  mkdir: async (dir) => void (await fsp.mkdir(dir, { recursive: true })),
  async rename(from, to) {
    await fsp.rename(from, to);
    // The move survives a power loss (an archive, a created skill, a rotated log): both folders' entries. Best
    // effort: the move has happened, and a caller told it failed would act on a state that is not there.
    await fsyncDir(path.dirname(to)).catch(() => undefined);
    if (path.dirname(from) !== path.dirname(to)) await fsyncDir(path.dirname(from)).catch(() => undefined);
  },
  async remove(p) {
    // A file goes with one direct system call, answered at once (removals sit on a request's path: the state
    // folder's session files); a folder, or anything unlink refuses, by the recursive removal.
    try {
      unlinkSync(p);
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    }
    await fsp.rm(p, { recursive: true, force: true });
  },
  truncate: (file, size) => fsp.truncate(file, size),
  withLock: (lockFile, fn, options) => withFileLock(lockFile, fn, options),
};
