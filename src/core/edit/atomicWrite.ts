import * as path from 'node:path';
import { localDisk } from '../host/localDisk';
import type { WritableHost } from '../host/fileWrites';
import { isTempName, tempSibling } from '../os/atomicFile';
import { EditError } from './editErrors';
import { joinInside } from './safePath';
import { answerOrUndefined } from '../host/skillsHost';

export { fsyncDir, isTempName, writeFileAtomic, type AtomicWriteOptions } from '../os/atomicFile';

/** One file of a folder created by {@link createDirAtomic}. */
export interface NewFile {
  /** Path relative to the new folder, forward slashes ("scripts/run.py"). */
  path: string;
  content: string | Uint8Array;
  /** File mode, e.g. 0o755 for scripts. Default 0o644. */
  mode?: number;
}

/**
 * Creates a whole folder (e.g. a new skill) atomically: every file is written whole into a temp sibling folder,
 * which is then renamed to `targetDir`. Either the complete folder appears or nothing does. Refuses when
 * `targetDir` already exists. Through `host` (the local disk by default, where each write is fsynced).
 */
export async function createDirAtomic(targetDir: string, files: readonly NewFile[], host: WritableHost = localDisk): Promise<void> {
  await assertAbsent(host, targetDir);
  await host.mkdir(path.dirname(targetDir));
  const temp = tempSibling(targetDir);
  await host.mkdir(temp);
  try {
    for (const file of files) await host.writeFile(joinInside(temp, file.path, 'file path'), file.content, { mode: file.mode ?? 0o644 });
    await assertAbsent(host, targetDir);
    await host.rename(temp, targetDir);
  } catch (err) {
    await host.remove(temp);
    throw err;
  }
}

async function assertAbsent(host: WritableHost, target: string): Promise<void> {
  if ((await host.kind(target, { noFollow: true })) === undefined) return;
  throw new EditError('TARGET_EXISTS', `${target} already exists. Choose another name, or archive the existing skill first.`);
}

/**
 * Removes temp files and folders left in `dir` by a crashed writer, when older than
 * `olderThanMs` (default one minute, so writers in flight are not disturbed).
 * Returns the names removed.
 */
export async function sweepTempFiles(dir: string, olderThanMs = 60_000, host: WritableHost = localDisk): Promise<string[]> {
  const removed: string[] = [];
  const entries = await answerOrUndefined(() => host.readDirectory(dir));
  const cutoff = Date.now() - olderThanMs;
  for (const { name } of entries ?? []) {
    if (!isTempName(name)) continue;
    const full = path.join(dir, name);
    const st = await answerOrUndefined(() => host.stat(full, { folders: true }));
    if (st && st.mtimeMs <= cutoff) {
      await host.remove(full);
      removed.push(name);
    }
  }
  return removed;
}
