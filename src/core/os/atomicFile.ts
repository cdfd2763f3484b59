// Crash-safe replacement of one file on the local disk: the Node host's `writeFile` (host/nodeWrites.ts).
import * as fsSync from 'node:fs';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { SPARE_MODE, takeSpare } from './spareFiles';
import { tempTag } from './tempTag';

/** Marker inside temp names, so leftovers of a crash can be recognised and swept. */
const TEMP_MARK = '.tmp-';

/** Options for {@link writeFileAtomic}. */
export interface AtomicWriteOptions {
  /** File mode for a new file; an existing target keeps its own mode. */
  mode?: number;
  /** False: no fsync of the file and the folder (readers still see old or new, never a mix; a power loss may keep the old). */
  durable?: boolean;
}

/** True when `name` is a temp file or folder left by this module (e.g. after a crash). */
export function isTempName(name: string): boolean {
  return name.startsWith('.') && name.includes(TEMP_MARK);
}

/** A temp name beside `target` (same folder, so a rename replaces atomically), recognised by {@link isTempName}. */
export function tempSibling(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}${TEMP_MARK}${tempTag()}`);
}

/** fsyncs a directory so a rename or new entry inside it survives a power loss. No-op where unsupported (Windows). */
export async function fsyncDir(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function writeAndSync(file: string, data: string | Uint8Array, mode: number, flag: string): Promise<void> {
  const handle = await fs.open(file, flag, mode);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Replaces `target` with `data` so that readers (and a crash at any point) see either
 * the old content or the new one, never a mix: write a temp file in the same folder,
 * fsync it, rename it over the target, fsync the folder. Creates missing parent folders.
 */
export async function writeFileAtomic(target: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  if (options.durable === false) return writeFileAtomicNow(target, data, options.mode);
  const dir = path.dirname(target);
  await fs.mkdir(dir, { recursive: true });
  let mode = options.mode ?? 0o644;
  try {
    mode = (await fs.stat(target)).mode & 0o7777;
  } catch {
    // new file: use the requested mode
  }
  const temp = tempSibling(target);
  try {
    await writeAndSync(temp, data, mode, 'wx');
    await fs.rename(temp, target);
  } catch (err) {
    await fs.rm(temp, { force: true });
    throw err;
  }
  await fsyncDir(dir);
}

/**
 * The same replacement without flushes: nothing waits on the disk, so its few system calls run at once rather than
 * each through the thread pool (a state write on a request's path, where a power loss may keep the old content).
 * The folder is made only when the temp file cannot be created for want of it (one system call fewer a write).
 */
function writeFileAtomicNow(target: string, data: string | Uint8Array, requestedMode = 0o644): void {
  let mode = requestedMode;
  try {
    const st = fsSync.statSync(target, { throwIfNoEntry: false });
    if (st) mode = st.mode & 0o7777;
  } catch {
    // not a path to a file yet (a missing folder on the way): use the requested mode
  }
  // A file made ahead (spareFiles.ts) when one is ready: its creation, the dearest step, is then off this path.
  const spare = mode === SPARE_MODE ? takeSpare(path.dirname(target)) : undefined;
  if (spare !== undefined && fillSpare(spare, target, data)) return;
  const temp = tempSibling(target);
  try {
    try {
      fsSync.writeFileSync(temp, data, { mode, flag: 'wx' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      fsSync.mkdirSync(path.dirname(target), { recursive: true });
      fsSync.writeFileSync(temp, data, { mode, flag: 'wx' });
    }
    fsSync.renameSync(temp, target);
  } catch (err) {
    fsSync.rmSync(temp, { force: true });
    throw err;
  }
}

/**
 * Opening a spare: never through a link put at its name (O_NOFOLLOW), never waiting on a FIFO (O_NONBLOCK: ENXIO
 * without a reader), never made (no O_CREAT): a spare that went is replaced by a temp file made as usual.
 */
const SPARE_OPEN = fsSync.constants.O_WRONLY | fsSync.constants.O_NOFOLLOW | fsSync.constants.O_NONBLOCK;

/**
 * Writes `data` into the spare and renames it onto `target`; false when the spare is not what this process made (gone
 * with its folder's content, or replaced: by a link, a FIFO, a file with a second name), and the caller makes a temp
 * file. Such a file is left as it is: nothing is written into it, and it is not renamed onto `target`.
 */
function fillSpare(spare: string, target: string, data: string | Uint8Array): boolean {
  let fd: number;
  try {
    fd = fsSync.openSync(spare, SPARE_OPEN);
  } catch {
    return false;
  }
  let ours = false;
  try {
    const st = fsSync.fstatSync(fd);
    ours = st.isFile() && st.nlink === 1;
    if (ours) {
      // Empty as made; bytes someone put in it since are not kept.
      if (st.size > 0) fsSync.ftruncateSync(fd, 0);
      fsSync.writeFileSync(fd, data);
    }
  } catch (err) {
    fsSync.closeSync(fd);
    fsSync.rmSync(spare, { force: true });
    throw err;
  }
  fsSync.closeSync(fd);
  if (!ours) return false;
  try {
    fsSync.renameSync(spare, target);
  } catch (err) {
    fsSync.rmSync(spare, { force: true });
    throw err;
  }
  return true;
}
