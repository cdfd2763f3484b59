import { createHash } from 'node:crypto';
import { overlayWins } from '../paths/overlayRule';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { localDisk } from '../host/localDisk';
import type { DirEntry, FileStamp, SyncSkillsHost } from '../host/skillsHost';
import { isTempName } from '../os/atomicFile';
import { formatBytes, UnreadableFileError } from '../os/readRegularFile';
import { isInside } from './paths';
import { compareStrings } from '../text/compareStrings';

// A skill's source tree as the runner reads it: through a host (the disk, memory, later a remote store), to
// fingerprint it and to copy it into a snapshot. What the copy writes goes to the disk: a script needs real files.

/**
 * The largest source file copied into a snapshot. A file is read whole before it is written (a host has no
 * streaming read), so this bounds the memory one copy takes; larger files are skipped with a warning.
 */
export const MAX_SNAPSHOT_FILE_BYTES = 256 * 1024 * 1024;

/** What a walk of a tree needs of a host. Its stamps' mode bits are hashed when it gives them (the Node host does). */
export type TreeHost = Pick<SyncSkillsHost, 'readDirectory' | 'realPath' | 'stat'>;

/**
 * Hashes the tree's paths with each entry's size, mtime and inode (not contents): cheap enough for every run,
 * and any edit moves an mtime, an atomic replace changes the inode, an added, removed or renamed entry
 * changes the paths, and a link is hashed by where it resolves (relative to the tree when inside it), so a
 * retargeted link changes it too. Mode bits are in it when the host's stat gives them (the Node host does; a
 * chmod of the copy must be noticed, see `fingerprintCopy`). Excluded names are skipped at every level.
 */
export function fingerprintTree(host: TreeHost, root: string, excludes: ReadonlySet<string>): string {
  const hash = createHash('sha256');
  let realRoot: string | undefined;
  const walk = (dir: string, rel: string): void => {
    const listed = host.readDirectory(dir);
    if (!listed) throw vanished(dir);
    // Sorted by code unit, whatever order the host lists in (a copy: a host may hand out the array it keeps).
    const entries = listed.slice().sort((a, b) => compareStrings(a.name, b.name));
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
      if (excludes.has(name) || (over && isTempName(name)) || kind === 'other') continue;
      const s = path.join(src, name);
      const d = path.join(dst, name);
      if (over) {
        const there = fs.lstatSync(d, { throwIfNoEntry: false });
        // The one overlay rule (readers and the runner's checks follow it too): only a file replaces the skill's entry.
        if (there && !there.isDirectory() && !overlayWins(kind)) continue;
        if (there && !(kind === 'directory' && there.isDirectory())) fs.rmSync(d, { recursive: true, force: true });
      }
      if (kind === 'directory') walk(s, d);
      else if (kind === 'file') copyFile(host, srcRoot, s, d, path.relative(srcRoot, s), warnings);
      else {
        const real = host.realPath(s);
        // A link to its own folder is `.` (path.relative answers '', which no link can hold).
        if (real && isInside(srcRoot, real)) fs.symlinkSync(path.relative(path.dirname(s), real) || '.', d);
        else warnings.push(`skipped ${path.relative(srcRoot, s)}: a symlink that points outside the skill or nowhere`);
      }
    }
  };
  walk(srcRoot, dstRoot);
  return dirs;
}

/**
 * One file: read through the host (a link as the last part refused, so a file swapped for a link since the
 * listing is not followed), written with `mode`. A file gone since the listing fails the copy (as a copy on disk
 * did); one over {@link MAX_SNAPSHOT_FILE_BYTES} is skipped with a warning naming it. What was read is then
 * proved to be the file inside `within` (the skill's real folder): a folder on its path swapped for a link out
 * between the listing and the read (which no open flag can refuse) fails the copy instead of copying from outside.
 */
function copyFile(host: SyncSkillsHost, within: string, src: string, dst: string, rel: string, warnings: string[], mode = 0o555): void {
  let read;
  try {
    read = host.readFile(src, { maxBytes: MAX_SNAPSHOT_FILE_BYTES, noFollow: true });
  } catch (e) {
    if (!(e instanceof UnreadableFileError && e.code === 'EFBIG')) throw e;
    warnings.push(
      `skipped ${rel}: it is ${formatBytes(e.size)}, and a run copies files of at most ${formatBytes(MAX_SNAPSHOT_FILE_BYTES)} from a skill; ` +
        'make it smaller, or keep it outside the skill and give it to the script as an input with mode "link".',
    );
    return;
  }
  if (!read) throw Object.assign(new Error(`${src} disappeared while the skill was being copied; run the script again`), { code: 'ENOENT', path: src });
  assertReadInside(host, within, src, rel, read);
  fs.writeFileSync(dst, read.bytes, { mode });
  fs.chmodSync(dst, mode);
}

/**
 * Throws unless the file just read is the one inside `within`: its real path lies inside, and (where the host
 * gives inodes) the file there now is the file whose bytes were read. A path swapped back after the read still
 * fails the second test, since the bytes came from another file.
 */
function assertReadInside(host: SyncSkillsHost, within: string, src: string, rel: string, read: FileStamp): void {
  const real = host.realPath(src);
  const there = real !== undefined && isInside(within, real) ? host.stat(real) : undefined;
  const same = there !== undefined && (read.ino === undefined || (there.ino === read.ino && there.dev === read.dev));
  if (!same) {
    throw Object.assign(new Error(`${rel} of the skill moved while it was being copied (a folder on its path was replaced, ${real === undefined ? 'and it is gone now' : `now leading to ${real}`}), so nothing was copied from it; if no one is changing the skill, run the script again.`), { code: 'ESKILLMOVED', path: src });
  }
}

/**
 * Copies a file or folder of a skill, read through `host`, to `dst` on the disk as a script's input (a
 * `skill://` input in copy mode): files keep their permission bits where the host has them (0644 otherwise),
 * always readable and writable by their owner, since the copy is the script's own. A link is followed when it
 * leads to a file inside `within` (the skill's real folder) and skipped with a warning otherwise (out of the
 * skill, dangling, or to a folder, which could loop).
 */
export function copyOut(host: SyncSkillsHost, within: string, src: string, dst: string, warnings: string[]): void {
  const modeOf = (p: string): number => ((host.stat(p)?.mode ?? 0o644) & 0o777) | 0o600;
  const one = (s: string, d: string, kind: DirEntry['kind'] | undefined): void => {
    const rel = path.relative(within, s) || path.basename(s);
    if (kind === 'directory') {
      fs.mkdirSync(d, { recursive: true });
      for (const e of host.readDirectory(s) ?? []) one(path.join(s, e.name), path.join(d, e.name), e.kind);
    } else if (kind === 'file') {
      copyFile(host, within, s, d, rel, warnings, modeOf(s));
    } else if (kind === 'symlink') {
      const real = host.realPath(s);
      if (real && isInside(within, real) && host.kind(real) === 'file') copyFile(host, within, real, d, rel, warnings, modeOf(real));
      else warnings.push(`skipped ${rel}: a symlink that points outside the skill, nowhere, or to a folder`);
    } else {
      warnings.push(`skipped ${rel}: not a regular file or folder`);
    }
  };
  const top = host.kind(src);
  one(src, dst, top === 'other' ? undefined : top);
}

/**
 * The fingerprint of a snapshot the runner made (on the disk, whose stamps carry mode bits), to notice a script that
 * changed it: one may chmod its copy (an owner can, and root ignores 0555), and a copy made unreadable or
 * unexecutable must be made again, though no mtime moved.
 */
export function fingerprintCopy(dir: string, excludes: ReadonlySet<string>): string {
  return fingerprintTree(localDisk, dir, excludes);
}
