import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FileStamp, SyncSkillsHost } from '../host/skillsHost';
import { formatBytes, UnreadableFileError } from '../os/readRegularFile';
import { isInside } from './paths';

// A skill's source tree as the runner reads it: through a host (the disk, memory, later a remote store), to
// fingerprint it and to copy it into a snapshot. What the copy writes goes to the disk: a script needs real files.

/**
 * The largest source file copied into a snapshot. A file is read whole before it is written (a host has no
 * streaming read), so this bounds the memory one copy takes; larger files are skipped with a warning.
 */
export const MAX_SNAPSHOT_FILE_BYTES = 256 * 1024 * 1024;

/**
 * What a walk of a tree needs of a host. `stat` may add the mode bits: the runner's check of its own copies
 * does (see `skillSnapshot.ts`), a source host need not.
 */
export type TreeHost = Pick<SyncSkillsHost, 'readDirectory' | 'realPath'> & {
  stat(p: string, options?: { folders?: boolean }): (FileStamp & { mode?: number }) | undefined;
};

/**
 * Hashes the tree's paths with each entry's size, mtime and inode (not contents): cheap enough for every run,
 * and any edit moves an mtime, an atomic replace changes the inode, an added, removed or renamed entry
 * changes the paths, and a link is hashed by where it resolves (relative to the tree when inside it), so a
 * retargeted link changes it too. Mode bits are in it only when the host's stat gives them: a source's
 * modes do not reach the copy (every copied file is 0555), so a source host leaves them out. Excluded
 * names are skipped at every level.
 */
export function fingerprintTree(host: TreeHost, root: string, excludes: ReadonlySet<string>): string {
  const hash = createHash('sha256');
  let realRoot: string | undefined;
  const walk = (dir: string, rel: string): void => {
    const listed = host.readDirectory(dir);
    if (!listed) throw vanished(dir);
    // Sorted by code unit, whatever order the host lists in (a copy: a host may hand out the array it keeps).
    const entries = listed.slice().sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const { name, kind } of entries) {
      if (excludes.has(name)) continue;
      const abs = path.join(dir, name);
      if (kind === 'symlink') {
        const real = host.realPath(abs);
        realRoot ??= host.realPath(root) ?? root;
        const where = real === undefined ? '!dangling' : isInside(realRoot, real) ? path.relative(realRoot, real) : `!outside:${real}`;
        hash.update(`${rel}${name}\0link\0${where}\n`);
        continue;
      }
      const st = kind === 'other' ? undefined : host.stat(abs, { folders: true });
      hash.update(`${rel}${name}\0${kind}\0${st ? `${st.size}\0${st.mtimeMs}\0${st.ino ?? ''}\0${st.mode ?? ''}` : '-'}\n`);
      if (kind === 'directory') walk(abs, `${rel}${name}/`);
    }
  };
  walk(root, '');
  return hash.digest('hex').slice(0, 16);
}

/** A temp file of an atomic write in progress (`.<name>.tmp-...`, see edit/atomicWrite): never staged. */
function isWriteInProgress(name: string): boolean {
  return name.startsWith('.') && name.includes('.tmp-');
}

/** A folder of the source that was listed and then was gone: the copy would not match its fingerprint. */
function vanished(dir: string): Error {
  return Object.assign(new Error(`${dir} disappeared while the skill was being read; run the script again`), { code: 'ENOENT', path: dir });
}

/**
 * Copies the tree read through `host` onto the disk at `dstRoot`: files 0555 (readable and executable, so a
 * script needs no executable bit of its own), symlinks kept when they resolve inside the skill (as relative
 * links) and dropped with a warning when they point out of it, files over {@link MAX_SNAPSHOT_FILE_BYTES}
 * dropped with a warning. `over`: lays the tree over a copy already made (an overlay's files replace and add
 * to it). Returns the folders it made, for the caller to lock (0555) once every layer is in.
 */
export function copyTree(host: SyncSkillsHost, srcRoot: string, dstRoot: string, excludes: ReadonlySet<string>, warnings: string[], over = false): string[] {
  const dirs: string[] = [];
  const walk = (src: string, dst: string): void => {
    // Laid over a copy already made (an overlay): folders may exist, files are replaced.
    if (!over || !fs.existsSync(dst)) {
      fs.mkdirSync(dst);
      dirs.push(dst);
    }
    const entries = host.readDirectory(src);
    if (!entries) throw vanished(src);
    for (const { name, kind } of entries) {
      if (excludes.has(name) || (over && isWriteInProgress(name)) || kind === 'other') continue;
      const s = path.join(src, name);
      const d = path.join(dst, name);
      if (over) {
        const there = fs.lstatSync(d, { throwIfNoEntry: false });
        if (there && !(kind === 'directory' && there.isDirectory())) fs.rmSync(d, { recursive: true, force: true });
      }
      if (kind === 'directory') walk(s, d);
      else if (kind === 'file') copyFile(host, s, d, path.relative(srcRoot, s), warnings);
      else {
        const real = host.realPath(s);
        if (real && isInside(srcRoot, real)) fs.symlinkSync(path.relative(path.dirname(s), real), d);
        else warnings.push(`skipped ${path.relative(srcRoot, s)}: a symlink that points outside the skill or nowhere`);
      }
    }
  };
  walk(srcRoot, dstRoot);
  return dirs;
}

/** One file: read through the host, written 0555. A file gone since the listing fails the copy (as a copy on disk did). */
function copyFile(host: SyncSkillsHost, src: string, dst: string, rel: string, warnings: string[]): void {
  let read;
  try {
    // Stampless: the copy needs the bytes only (one system call fewer per small file on the disk).
    read = host.readFile(src, { maxBytes: MAX_SNAPSHOT_FILE_BYTES, stampless: true });
  } catch (e) {
    if (!(e instanceof UnreadableFileError && e.code === 'EFBIG')) throw e;
    warnings.push(
      `skipped ${rel}: it is ${formatBytes(e.size)}, and a run copies files of at most ${formatBytes(MAX_SNAPSHOT_FILE_BYTES)} into its read-only copy of the skill; ` +
        'make it smaller, or keep it outside the skill and give it to the script as an input with mode "link".',
    );
    return;
  }
  if (!read) throw Object.assign(new Error(`${src} disappeared while the skill was being copied; run the script again`), { code: 'ENOENT', path: src });
  fs.writeFileSync(dst, read.bytes);
  fs.chmodSync(dst, 0o555);
}
