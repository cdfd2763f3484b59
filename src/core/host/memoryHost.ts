import * as path from 'node:path';
import { UnreadableFileError } from '../os/readRegularFile';
import { MAX_SKILL_FILE_BYTES } from '../skill/parseLimits';
import { missingPath, type SyncWritableHost } from './fileWrites';
import type { DirEntry, FileRead } from './skillsHost';

/**
 * A host whose files live in a map: for unit tests where the disk is not the point, and for a core whose state
 * should not outlive the process. Its lock is per process (nothing else can share a map).
 */
export interface MemoryHost extends SyncWritableHost {
  /** Creates or replaces a file (its folders appear with it); each write moves the file's mtime on. */
  write(file: string, content: string | Uint8Array): void;
  /** Removes a file, or a folder with everything under it. */
  remove(fileOrDir: string): void;
  /** How many calls each method answered, so a test can see what a refresh did not read again. */
  readonly calls: { readDirectory: number; stat: number; readFile: number };
}

/**
 * An in-memory host over absolute paths (`files` maps a path to its content). Answers synchronously, like the
 * Node host, and applies the same size limit on reads, so what the registry does with it is what it does on disk.
 */
export function createMemoryHost(files: Record<string, string | Uint8Array> = {}, options: { maxFileBytes?: number } = {}): MemoryHost {
  const maxBytes = options.maxFileBytes ?? MAX_SKILL_FILE_BYTES;
  const contents = new Map<string, { bytes: Uint8Array; mtimeMs: number }>();
  const dirs = new Map<string, Set<string>>();
  /** A folder's mtime: moved when an entry is added to it or removed from it, as on disk. */
  const dirTimes = new Map<string, number>();
  // Milliseconds since the epoch like a disk's mtimes (a sweep of old temp files compares them with the time),
  // moved on by at least one per change so that every change is seen.
  let clock = 0;
  const tick = (): number => (clock = Math.max(clock + 1, Date.now()));
  const touch = (dir: string): void => void dirTimes.set(dir, tick());
  const calls = { readDirectory: 0, stat: 0, readFile: 0 };

  const addDir = (dir: string): void => {
    if (dirs.has(dir)) return;
    dirs.set(dir, new Set());
    const parent = path.dirname(dir);
    if (parent === dir) return;
    addDir(parent);
    dirs.get(parent)!.add(path.basename(dir));
    touch(parent);
  };
  const write = (file: string, content: string | Uint8Array): void => {
    const abs = path.resolve(file);
    addDir(path.dirname(abs));
    const siblings = dirs.get(path.dirname(abs))!;
    if (!siblings.has(path.basename(abs))) touch(path.dirname(abs));
    siblings.add(path.basename(abs));
    contents.set(abs, { bytes: typeof content === 'string' ? new TextEncoder().encode(content) : content, mtimeMs: tick() });
  };
  const remove = (target: string): void => {
    const abs = path.resolve(target);
    if (dirs.get(path.dirname(abs))?.delete(path.basename(abs))) touch(path.dirname(abs));
    contents.delete(abs);
    const prefix = abs + path.sep;
    for (const k of [...contents.keys()]) if (k.startsWith(prefix)) contents.delete(k);
    for (const k of [...dirs.keys()]) if (k === abs || k.startsWith(prefix)) dirs.delete(k);
  };
  for (const [file, content] of Object.entries(files)) write(file, content);
  const bytesOf = (data: string | Uint8Array): Uint8Array => (typeof data === 'string' ? new TextEncoder().encode(data) : Uint8Array.from(data));
  const rename = (from: string, to: string): void => {
    const src = path.resolve(from);
    const dst = path.resolve(to);
    if (src === dst) return;
    if (dirs.has(src)) {
      if (contents.has(dst)) throw Object.assign(new Error(`ENOTDIR: not a directory, rename '${src}' -> '${dst}'`), { code: 'ENOTDIR' });
      if (dirs.get(dst)?.size) throw Object.assign(new Error(`ENOTEMPTY: directory not empty, rename '${src}' -> '${dst}'`), { code: 'ENOTEMPTY' });
      if (dst.startsWith(src + path.sep)) throw Object.assign(new Error(`EINVAL: invalid argument, rename '${src}' -> '${dst}'`), { code: 'EINVAL' });
      if (!dirs.has(path.dirname(dst))) throw missingPath(dst, 'rename');
      remove(dst);
      const moved = (k: string): string => dst + k.slice(src.length);
      const prefix = src + path.sep;
      for (const k of [...dirs.keys()]) if (k === src || k.startsWith(prefix)) { dirs.set(moved(k), dirs.get(k)!); dirs.delete(k); }
      for (const k of [...contents.keys()]) if (k.startsWith(prefix)) { contents.set(moved(k), contents.get(k)!); contents.delete(k); }
      if (dirs.get(path.dirname(src))?.delete(path.basename(src))) touch(path.dirname(src));
      dirs.get(path.dirname(dst))!.add(path.basename(dst));
      touch(path.dirname(dst));
      return;
    }
    const f = contents.get(src);
    if (!f) throw missingPath(src, 'rename');
    if (dirs.has(dst)) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, rename '${src}' -> '${dst}'`), { code: 'EISDIR' });
    if (!dirs.has(path.dirname(dst))) throw missingPath(dst, 'rename');
    remove(src);
    write(dst, f.bytes);
  };
  const locks = new Map<string, Promise<unknown>>();

  return {
    calls,
    write,
    remove,
    rename,
    writeFile(file, data) {
      if (dirs.has(path.resolve(file))) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, open '${file}'`), { code: 'EISDIR' });
      write(file, bytesOf(data));
    },
    appendFile(file, data) {
      const abs = path.resolve(file);
      if (dirs.has(abs)) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, open '${file}'`), { code: 'EISDIR' });
      const before = contents.get(abs)?.bytes ?? new Uint8Array(0);
      const added = bytesOf(data);
      const next = new Uint8Array(before.length + added.length);
      next.set(before);
      next.set(added, before.length);
      write(abs, next);
    },
    mkdir(dir) {
      const abs = path.resolve(dir);
      if (contents.has(abs)) throw Object.assign(new Error(`EEXIST: file already exists, mkdir '${abs}'`), { code: 'EEXIST' });
      addDir(abs);
    },
    truncate(file, size) {
      const abs = path.resolve(file);
      const f = contents.get(abs);
      if (!f) throw missingPath(abs, 'open');
      write(abs, f.bytes.slice(0, size));
    },
    withLock<T>(lockFile: string, fn: () => Promise<T>): Promise<T> {
      const key = path.resolve(lockFile);
      const run = (locks.get(key) ?? Promise.resolve()).then(fn, fn);
      locks.set(key, run.catch(() => undefined));
      return run;
    },
    readDirectory(dir) {
      calls.readDirectory++;
      const names = dirs.get(path.resolve(dir));
      if (!names) return undefined;
      const abs = path.resolve(dir);
      return [...names].map((name): DirEntry => ({ name, kind: dirs.has(path.join(abs, name)) ? 'directory' : 'file' }));
    },
    stat(file, options) {
      calls.stat++;
      const abs = path.resolve(file);
      const f = contents.get(abs);
      if (f) return { mtimeMs: f.mtimeMs, size: f.bytes.length };
      const entries = options?.folders ? dirs.get(abs) : undefined;
      return entries ? { mtimeMs: dirTimes.get(abs) ?? 0, size: entries.size } : undefined;
    },
    readFile(file, options): FileRead | undefined {
      calls.readFile++;
      const abs = path.resolve(file);
      const limit = options?.maxBytes ?? maxBytes;
      if (dirs.has(abs)) throw new UnreadableFileError('ENOTREG', abs, 0, limit, 'folder');
      const f = contents.get(abs);
      if (!f) return undefined;
      if (options?.range) {
        const { offset, length } = options.range;
        return { bytes: f.bytes.subarray(Math.min(offset, f.bytes.length), Math.min(f.bytes.length, offset + Math.max(0, length))), mtimeMs: f.mtimeMs, size: f.bytes.length };
      }
      if (f.bytes.length > limit) throw new UnreadableFileError('EFBIG', abs, f.bytes.length, limit, 'file');
      return { bytes: f.bytes, mtimeMs: f.mtimeMs, size: f.bytes.length };
    },
    kind(p) {
      const abs = path.resolve(p);
      return dirs.has(abs) ? 'directory' : contents.has(abs) ? 'file' : undefined;
    },
    realPath(p) {
      const abs = path.resolve(p);
      return dirs.has(abs) || contents.has(abs) ? abs : undefined;
    },
  };
}
