import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { EditError } from './errors';
import { resolveInside } from './safePath';

/** Marker inside temp names, so leftovers of a crash can be recognised and swept. */
const TEMP_MARK = '.tmp-';

/** Options for {@link writeFileAtomic}. */
export interface AtomicWriteOptions {
  /** File mode for a new file; an existing target keeps its own mode. */
  mode?: number;
}

/** True when `name` is a temp file or folder left by this module (e.g. after a crash). */
export function isTempName(name: string): boolean {
  return name.startsWith('.') && name.includes(TEMP_MARK);
}

function tempSibling(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}${TEMP_MARK}${process.pid}-${randomBytes(4).toString('hex')}`);
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

/** One file of a folder created by {@link createDirAtomic}. */
export interface NewFile {
  /** Path relative to the new folder, forward slashes ("scripts/run.py"). */
  path: string;
  content: string | Uint8Array;
  /** File mode, e.g. 0o755 for scripts. Default 0o644. */
  mode?: number;
}

/**
 * Creates a whole folder (e.g. a new skill) atomically: every file is written and fsynced
 * into a temp sibling folder, which is then renamed to `targetDir`. Either the complete
 * folder appears or nothing does. Refuses when `targetDir` already exists.
 */
export async function createDirAtomic(targetDir: string, files: readonly NewFile[]): Promise<void> {
  const parent = path.dirname(targetDir);
  await assertAbsent(targetDir);
  await fs.mkdir(parent, { recursive: true });
  const temp = tempSibling(targetDir);
  await fs.mkdir(temp);
  try {
    const dirs = new Set<string>([temp]);
    for (const file of files) {
      const full = resolveInside(temp, file.path, 'file path');
      await fs.mkdir(path.dirname(full), { recursive: true });
      for (let d = path.dirname(full); d.startsWith(temp); d = path.dirname(d)) dirs.add(d);
      await writeAndSync(full, file.content, file.mode ?? 0o644, 'wx');
    }
    for (const d of dirs) await fsyncDir(d);
    await assertAbsent(targetDir);
    await fs.rename(temp, targetDir);
  } catch (err) {
    await fs.rm(temp, { recursive: true, force: true });
    throw err;
  }
  await fsyncDir(parent);
}

async function assertAbsent(target: string): Promise<void> {
  try {
    await fs.lstat(target);
  } catch {
    return;
  }
  throw new EditError('TARGET_EXISTS', `${target} already exists. Choose another name, or archive the existing skill first.`);
}

/**
 * Removes temp files and folders left in `dir` by a crashed writer, when older than
 * `olderThanMs` (default one minute, so writers in flight are not disturbed).
 * Returns the names removed.
 */
export async function sweepTempFiles(dir: string, olderThanMs = 60_000): Promise<string[]> {
  const removed: string[] = [];
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return removed;
  }
  const cutoff = Date.now() - olderThanMs;
  for (const name of names) {
    if (!isTempName(name)) continue;
    const full = path.join(dir, name);
    const st = await fs.lstat(full).catch(() => undefined);
    if (st && st.mtimeMs <= cutoff) {
      await fs.rm(full, { recursive: true, force: true });
      removed.push(name);
    }
  }
  return removed;
}
