import * as fs from 'node:fs';
// Named imports for the calls made once per skill: a bundle reaches a namespace import's members through a
// getter per call (esbuild's interop), which a cold scan of thousands of skills pays thousands of times.
import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { readRegularFile, readRegularFileSync, readRegularRange, readRegularRangeSync, readSmallFileSync, type RegularFileRead } from '../os/readRegularFile';
import { DEFAULT_MAX_READ_BYTES } from './readLimits';

import type { SyncWritableHost, WritableHost } from './fileWrites';
import { nodeWrites } from './nodeWrites';
import type { DirEntry, FileRead, PathKind } from './skillsHost';

function isMissing(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}

/** A read as the host answers it: bytes and stamp (the inode too: it tells a replaced file). */
function stamped(r: RegularFileRead): FileRead {
  return { bytes: r.bytes, mtimeMs: r.mtimeMs, size: r.size, ino: r.ino, dev: r.dev };
}

function pathKindOf(st: fs.Stats): PathKind {
  return st.isFile() ? 'file' : st.isDirectory() ? 'directory' : 'other';
}

function kindOf(d: fs.Dirent): DirEntry['kind'] {
  if (d.isDirectory()) return 'directory';
  if (d.isFile()) return 'file';
  if (d.isSymbolicLink()) return 'symlink';
  return 'other';
}

/**
 * The default host: Node's synchronous fs calls, each one small (one folder listing or one file), which the
 * registry runs in time slices of a few milliseconds. Sync calls are several times faster than the
 * thread-pool round trip of `fs.promises`; use {@link createAsyncNodeHost} for slow or remote disks. Writes go
 * through `fs.promises` (see `nodeWrites.ts`).
 */
export function createNodeHost(): SyncWritableHost {
  return {
    ...nodeWrites,
    local: true,
    readDirectory(dir) {
      try {
        const dirents = readdirSync(dir, { withFileTypes: true });
        const entries: DirEntry[] = new Array(dirents.length);
        for (let i = 0; i < dirents.length; i++) entries[i] = { name: dirents[i].name, kind: kindOf(dirents[i]) };
        return entries;
      } catch (e) {
        if (isMissing(e)) return undefined;
        throw e;
      }
    },
    stat(file, options) {
      try {
        const st = statSync(file, { throwIfNoEntry: false });
        return st && (st.isFile() || (options?.folders && st.isDirectory())) ? { mtimeMs: st.mtimeMs, size: st.size, ino: st.ino, dev: st.dev, mode: st.mode } : undefined;
      } catch (e) {
        if (isMissing(e)) return undefined;
        throw e;
      }
    },
    readFile(file, options) {
      try {
        if (options?.range) return stamped(readRegularRangeSync(file, options.range.offset, options.range.length));
        const r = (options?.stampless ? readSmallFileSync : readRegularFileSync)(file, options?.maxBytes ?? DEFAULT_MAX_READ_BYTES, options);
        return options?.stampless ? { bytes: r.bytes, mtimeMs: r.mtimeMs, size: r.size } : stamped(r);
      } catch (e) {
        if (isMissing(e)) return undefined;
        throw e;
      }
    },
    kind(p, options) {
      try {
        const st = (options?.noFollow ? lstatSync : statSync)(p, { throwIfNoEntry: false });
        return st && pathKindOf(st);
      } catch {
        return undefined;
      }
    },
    realPath(p) {
      try {
        return realpathSync.native(p);
      } catch {
        return undefined;
      }
    },
  };
}

/** A host on `fs.promises`: never blocks on a slow disk, at the price of a thread-pool round trip per call. */
export function createAsyncNodeHost(): WritableHost {
  const fsp = fs.promises;
  return {
    ...nodeWrites,
    local: true,
    async readDirectory(dir) {
      try {
        return (await fsp.readdir(dir, { withFileTypes: true })).map((d) => ({ name: d.name, kind: kindOf(d) }));
      } catch (e) {
        if (isMissing(e)) return undefined;
        throw e;
      }
    },
    async stat(file, options) {
      try {
        const st = await fsp.stat(file);
        return st.isFile() || (options?.folders && st.isDirectory()) ? { mtimeMs: st.mtimeMs, size: st.size, ino: st.ino, dev: st.dev, mode: st.mode } : undefined;
      } catch (e) {
        if (isMissing(e)) return undefined;
        throw e;
      }
    },
    async readFile(file, options) {
      try {
        if (options?.range) return stamped(await readRegularRange(file, options.range.offset, options.range.length));
        return stamped(await readRegularFile(file, options?.maxBytes ?? DEFAULT_MAX_READ_BYTES, options));
      } catch (e) {
        if (isMissing(e)) return undefined;
        throw e;
      }
    },
    async kind(p, options) {
      try {
        return pathKindOf(await (options?.noFollow ? fsp.lstat(p) : fsp.stat(p)));
      } catch {
        return undefined;
      }
    },
    async realPath(p) {
      try {
        return await fsp.realpath(p);
      } catch {
        return undefined;
      }
    },
  };
}
