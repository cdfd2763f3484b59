import * as path from 'node:path';
import { UnreadableFileError } from '../os/readRegularFile';
import { DEFAULT_MAX_READ_BYTES } from './readLimits';
import { StoreBusyError } from './storeBusyError';
import { fsError, missingPath, type LockOptions, type SyncWritableHost } from './fileWrites';
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
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_READ_BYTES;
  const contents = new Map<string, { bytes: Uint8Array; mtimeMs: number }>();
  const dirs = new Map<string, Set<string>>();
  /** A folder's mtime: moved when an entry is added to it or removed from it, as on disk. */
  const dirTimes = new Map<string, number>();
  // Milliseconds since the epoch like a disk's mtimes (a sweep of old temp files compares them with the time),
  // moved on by at least one per change so that every change is seen. A folder gets one when it is made.
  let clock = 0;
  const tick = (): number => (clock = Math.max(clock + 1, Date.now()));
  const touch = (dir: string): void => void dirTimes.set(dir, tick());
  const calls = { readDirectory: 0, stat: 0, readFile: 0 };

  const addDir = (dir: string): void => {
    if (dirs.has(dir)) return;
    // A file in the way of a folder (`SKILL.md/x`): refused as on the disk, not turned into a folder beside it.
    // Checked all the way up before anything is made, so a refusal leaves no folder behind.
    for (let d = dir; !dirs.has(d); d = path.dirname(d)) {
      if (contents.has(d)) throw fsError('ENOTDIR', 'not a directory', 'mkdir', dir);
      if (path.dirname(d) === d) break;
    }
    const make = (d: string): void => {
      if (dirs.has(d)) return;
      const parent = path.dirname(d);
      if (parent !== d) make(parent);
      dirs.set(d, new Set());
      touch(d);
      if (parent === d) return;
      dirs.get(parent)!.add(path.basename(d));
      touch(parent);
    };
    make(dir);
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
      if (contents.has(dst)) throw fsError('ENOTDIR', 'not a directory', 'rename', src, dst);
      if (dirs.get(dst)?.size) throw fsError('ENOTEMPTY', 'directory not empty', 'rename', src, dst);
      if (dst.startsWith(src + path.sep)) throw fsError('EINVAL', 'invalid argument', 'rename', src, dst);
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
    if (dirs.has(dst)) throw fsError('EISDIR', 'illegal operation on a directory', 'rename', src, dst);
    if (!dirs.has(path.dirname(dst))) throw missingPath(dst, 'rename');
    remove(src);
    write(dst, f.bytes);
  };
  const locks = new Map<string, Promise<unknown>>();
  /** The buffer an appended file's bytes are a view of, with room to grow (see appendFile). */
  const spare = new WeakMap<object, Uint8Array>();

  return {
    calls,
    write,
    remove,
    rename,
    writeFile(file, data) {
      if (dirs.has(path.resolve(file))) throw fsError('EISDIR', 'illegal operation on a directory', 'open', file);
      write(file, bytesOf(data));
    },
    appendFile(file, data) {
      const abs = path.resolve(file);
      if (dirs.has(abs)) throw fsError('EISDIR', 'illegal operation on a directory', 'open', file);
      const f = contents.get(abs);
      const added = bytesOf(data);
      if (!f) return write(abs, added);
      // Appended in place while there is room, the room doubling when it runs out: a log of n appends costs O(n),
      // not O(n²). Earlier reads keep their own view of the bytes they were given.
      const end = f.bytes.length + added.length;
      let room = spare.get(f);
      if (!room || room.buffer !== f.bytes.buffer || room.length < end) {
        room = new Uint8Array(Math.max(end * 2, 4096));
        room.set(f.bytes);
      }
      room.set(added, f.bytes.length);
      const grown = { bytes: room.subarray(0, end), mtimeMs: tick() };
      spare.set(grown, room);
      contents.set(abs, grown);
    },
    mkdir(dir) {
      const abs = path.resolve(dir);
      if (contents.has(abs)) throw fsError('EEXIST', 'file already exists', 'mkdir', abs);
      addDir(abs);
    },
    truncate(file, size) {
      const abs = path.resolve(file);
      const f = contents.get(abs);
      if (!f) throw missingPath(abs, 'open');
      write(abs, f.bytes.slice(0, size));
    },
    withLock<T>(lockFile: string, fn: () => Promise<T>, options?: LockOptions): Promise<T> {
      const key = path.resolve(lockFile);
      const timeoutMs = options?.timeoutMs ?? 10_000;
      const prev = locks.get(key) ?? Promise.resolve();
      // Waits for the holder before it, up to timeoutMs, then gives up with STORE_BUSY as the disk's lock does.
      let timer: NodeJS.Timeout | undefined;
      const turn = new Promise<boolean>((resolve) => {
        void prev.then(() => resolve(true));
        timer = setTimeout(() => resolve(false), timeoutMs);
      });
      const run = turn.then((mine) => {
        clearTimeout(timer);
        if (!mine) throw new StoreBusyError(`${key} has been held for over ${Math.round(timeoutMs / 1000)} s by another holder in this process. Try again.`);
        return fn();
      });
      // The next holder waits for this one and, when this one gave up, for the holder this one was waiting for.
      locks.set(key, Promise.all([prev, run.catch(() => undefined)]).then(() => undefined));
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
      return entries ? { mtimeMs: dirTimes.get(abs) ?? tick(), size: entries.size } : undefined;
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
