import * as fs from 'node:fs';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/**
 * Reading a file that a skill (or an attacker) put in place, without trusting its name: a FIFO named
 * `SKILL.md` would block `open` for ever (no writer ever comes), a device never ends, and a 1.5 GB sparse file
 * costs its full size in memory before any check. So the file is opened non-blocking (opening a FIFO then
 * returns at once instead of waiting for a writer) and its kind and size are checked on the open descriptor,
 * the one that is read, before a byte is read: no race between a check on the name and the read.
 */

/** Why a file was not read: it is not a regular file, or it is larger than the caller's limit. */
export class UnreadableFileError extends Error {
  constructor(
    /** `ENOTREG`: a FIFO, socket, device or folder; `EFBIG`: over the size limit. */
    readonly code: 'ENOTREG' | 'EFBIG',
    readonly file: string,
    /** Size on disk (for `EFBIG`). */
    readonly size: number,
    readonly maxBytes: number,
    /** What the path holds: `file`, `folder`, `named pipe (FIFO)`, `socket`, `device`... */
    readonly kind: string,
  ) {
    super(
      code === 'ENOTREG'
        ? `${file} is a ${kind}, not a regular file, so it is not read. Replace it with a regular file.`
        : `${file} is ${formatBytes(size)}; at most ${formatBytes(maxBytes)} is read. Make it smaller (move long content into separate files).`,
    );
    this.name = 'UnreadableFileError';
  }
}

/** A file read whole, with the stamp of the bytes read. */
export interface RegularFileRead {
  bytes: Buffer;
  size: number;
  mtimeMs: number;
  ino: number;
  /** The device the file is on: with `ino`, the file's identity whatever path reached it. */
  dev: number;
}

// Absent on Windows, where opening a named pipe does not wait for a writer in the same way.
const NONBLOCK = fs.constants.O_NONBLOCK ?? 0;
const OPEN_FLAGS = fs.constants.O_RDONLY | NONBLOCK;
/** Opening a link as the last part fails with ELOOP (absent on Windows, where callers check links themselves). */
const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

/** What kind of file a stat describes, for messages. */
export function fileKind(st: fs.Stats): string {
  if (st.isFile()) return 'file';
  if (st.isDirectory()) return 'folder';
  if (st.isFIFO()) return 'named pipe (FIFO)';
  if (st.isSocket()) return 'socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'device';
  return 'special file';
}

function check(file: string, st: fs.Stats, maxBytes: number): void {
  if (!st.isFile()) throw new UnreadableFileError('ENOTREG', file, st.size, maxBytes, fileKind(st));
  if (st.size > maxBytes) throw new UnreadableFileError('EFBIG', file, st.size, maxBytes, 'file');
}

/**
 * Reads a regular file of at most `maxBytes`. Throws {@link UnreadableFileError} for anything else, and the
 * usual errno errors (`ENOENT`, `EACCES`...) otherwise. Never blocks on a special file. The bytes are those
 * present when read: a file that grows meanwhile is cut at the size checked.
 */
export function readRegularFileSync(file: string, maxBytes: number, options: { noFollow?: boolean } = {}): RegularFileRead {
  const fd = openSync(file, options.noFollow ? OPEN_FLAGS | NOFOLLOW : OPEN_FLAGS);
  try {
    return readOpenFile(fd, file, maxBytes);
  } finally {
    closeSync(fd);
  }
}

/** The stamped read of an open descriptor: its kind and size checked on it, then read from offset 0. */
function readOpenFile(fd: number, file: string, maxBytes: number): RegularFileRead {
  const st = fstatSync(fd);
  check(file, st, maxBytes);
  const bytes = readAtSync(fd, 0, st.size);
  return { bytes, size: bytes.length, mtimeMs: st.mtimeMs, ino: st.ino, dev: st.dev };
}

/** `want` bytes of an open file from `offset`, fewer when it ends first (a file that shrank since its stat). */
function readAtSync(fd: number, offset: number, want: number): Buffer {
  const bytes = Buffer.allocUnsafe(want);
  let read = 0;
  while (read < want) {
    const n = readSync(fd, bytes, read, want - read, offset + read);
    if (n === 0) break;
    read += n;
  }
  return read === want ? bytes : bytes.subarray(0, read);
}

/** {@link readAtSync} on a `fs.promises` handle. */
async function readAt(handle: fs.promises.FileHandle, offset: number, want: number): Promise<Buffer> {
  const bytes = Buffer.allocUnsafe(want);
  let read = 0;
  while (read < want) {
    const { bytesRead } = await handle.read(bytes, read, want - read, offset + read);
    if (bytesRead === 0) break;
    read += bytesRead;
  }
  return read === want ? bytes : bytes.subarray(0, read);
}

/** The most bytes {@link readSmallFileSync} reads without a stamp. */
export const STAMPLESS_MAX_BYTES = 4096;
/** One buffer for the first read of every stampless read (a scan is synchronous: never two at once). */
const probe = Buffer.allocUnsafe(STAMPLESS_MAX_BYTES + 1);

/**
 * {@link readRegularFileSync} for a caller that can do without the stamp: a file whose first read returns between
 * 1 and {@link STAMPLESS_MAX_BYTES} bytes (all of it: a regular file's read returns what was asked unless the file
 * ends) is answered from that read, with `mtimeMs`, `ino` and `dev` NaN, one system call (fstat) fewer than the
 * stamped read. Anything else — an empty or larger file, a folder (EISDIR), a FIFO (a read at an offset fails on a
 * pipe, ESPIPE, even one a running process feeds), a device (endless) — is read or refused by the stamped read on
 * the same descriptor, with its usual answer and messages. Never blocks: the file is opened non-blocking, and at
 * most one bounded read is made first.
 */
export function readSmallFileSync(file: string, maxBytes: number, options: { noFollow?: boolean } = {}): RegularFileRead {
  const fd = openSync(file, options.noFollow ? OPEN_FLAGS | NOFOLLOW : OPEN_FLAGS);
  try {
    let n = -1;
    try {
      n = readSync(fd, probe, 0, probe.length, 0);
    } catch {
      // EISDIR, EAGAIN (a FIFO with a writer but no data)...: the stamped read says what this is.
    }
    if (n > 0 && n <= STAMPLESS_MAX_BYTES && n <= maxBytes) {
      const bytes = Buffer.allocUnsafe(n);
      probe.copy(bytes, 0, 0, n);
      return { bytes, size: n, mtimeMs: NaN, ino: NaN, dev: NaN };
    }
    return readOpenFile(fd, file, maxBytes);
  } finally {
    closeSync(fd);
  }
}

/** {@link readRegularFileSync} on `fs.promises`. */
export async function readRegularFile(file: string, maxBytes: number, options: { noFollow?: boolean } = {}): Promise<RegularFileRead> {
  const handle = await fs.promises.open(file, options.noFollow ? OPEN_FLAGS | NOFOLLOW : OPEN_FLAGS);
  try {
    const st = await handle.stat();
    check(file, st, maxBytes);
    const bytes = await readAt(handle, 0, st.size);
    return { bytes, size: bytes.length, mtimeMs: st.mtimeMs, ino: st.ino, dev: st.dev };
  } finally {
    await handle.close();
  }
}

/**
 * The largest skill file the catalog reads whole (to show, patch or copy it): far above any text a skill
 * carries, below what would strain memory. Larger files are refused with their size, never read.
 */
export const MAX_CATALOG_FILE_BYTES = 64 * 1024 * 1024;

/** A page of a regular file: `bytes` from `offset`, with the whole file's size and stamp. */
export type RegularFileRange = RegularFileRead;

/**
 * Reads `length` bytes from `offset` of a regular file of any size (fewer at its end; none past it): the read
 * tool pages through large files. The same checks on the open descriptor as {@link readRegularFileSync}, except
 * the size limit; `size` is the whole file's size.
 */
export function readRegularRangeSync(file: string, offset: number, length: number): RegularFileRange {
  const fd = openSync(file, OPEN_FLAGS);
  try {
    const st = fstatSync(fd);
    check(file, st, Number.MAX_SAFE_INTEGER);
    const bytes = readAtSync(fd, offset, Math.max(0, Math.min(length, st.size - offset)));
    return { bytes, size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, dev: st.dev };
  } finally {
    closeSync(fd);
  }
}

/** {@link readRegularRangeSync} on `fs.promises`. */
export async function readRegularRange(file: string, offset: number, length: number): Promise<RegularFileRange> {
  const handle = await fs.promises.open(file, OPEN_FLAGS);
  try {
    const st = await handle.stat();
    check(file, st, Number.MAX_SAFE_INTEGER);
    const bytes = await readAt(handle, offset, Math.max(0, Math.min(length, st.size - offset)));
    return { bytes, size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, dev: st.dev };
  } finally {
    await handle.close();
  }
}

/** `1.5 GB`, `16 MiB`, `900 bytes`: a size for messages. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${Number.isInteger(v) ? v : v.toFixed(1)} ${units[u]}`;
}
