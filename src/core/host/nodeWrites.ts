import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { fsyncDir, writeFileAtomic } from '../os/atomicFile';
import { withFileLock } from '../edit/fileLock';
import type { FileWrites } from './fileWrites';

/** Appends once; a new file's folder entry is made durable too when `durable`. */
async function appendOnce(file: string, data: string | Uint8Array, durable: boolean): Promise<void> {
  if (!durable) return fsp.appendFile(file, data);
  const handle = await fsp.open(file, 'a');
  let created = false;
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    await handle.write(bytes);
    await handle.sync();
    created = (await handle.stat()).size === bytes.length;
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
    // The move survives a power loss (an archive, a created skill, a rotated log): both folders' entries.
    await fsyncDir(path.dirname(to));
    if (path.dirname(from) !== path.dirname(to)) await fsyncDir(path.dirname(from));
  },
  remove: (p) => fsp.rm(p, { recursive: true, force: true }),
  truncate: (file, size) => fsp.truncate(file, size),
  withLock: (lockFile, fn, options) => withFileLock(lockFile, fn, options),
};
