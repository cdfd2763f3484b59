import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { KnownSnapshots } from './knownSnapshots';
import { isInside } from './paths';
import { SKIP } from '../paths/walkSkill';

/** Names never staged from a skill's source tree (version control, caches, dependency folders). */
// Version-control data and caches, but not installed dependencies: a script may need its node_modules.
export const SNAPSHOT_EXCLUDES: readonly string[] = [...SKIP.vcs, '__pycache__', '.DS_Store'];

/** A read-only copy of a skill tree, reused by every run while the source is unchanged. */
export interface SkillSnapshot {
  /** Absolute path of the read-only copy. */
  dir: string;
  /** Top-level entry names of the copy. */
  entries: string[];
  /** True when this call made the copy (first run or the source changed). */
  created: boolean;
  warnings: string[];
}

/** A stable, file-system-safe key for one skill source (name plus a hash of its real root). */
export function skillKey(name: string, realRoot: string): string {
  const safe = name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 64) || 'skill';
  return `${safe}-${createHash('sha256').update(realRoot).digest('hex').slice(0, 10)}`;
}

/** A temp file of an atomic write in progress (`.<name>.tmp-...`, see edit/atomicWrite): never staged. */
function isWriteInProgress(name: string): boolean {
  return name.startsWith('.') && name.includes('.tmp-');
}

/** The names left out of snapshots: the fixed ones and the runner's dependency folders. */
export function snapshotExcludes(excludeNames: readonly string[]): Set<string> {
  return new Set([...SNAPSHOT_EXCLUDES, ...excludeNames]);
}

/**
 * Hashes paths, sizes, modes and mtimes of the tree (not contents): cheap enough for every run,
 * and any edit changes an mtime. Excluded names are skipped at every level.
 */
export function fingerprintTree(root: string, excludes: ReadonlySet<string>): string {
  const hash = createHash('sha256');
  const walk = (dir: string, rel: string): void => {
    const names = fs.readdirSync(dir).sort();
    for (const name of names) {
      if (excludes.has(name)) continue;
      const abs = path.join(dir, name);
      const st = fs.lstatSync(abs);
      hash.update(`${rel}${name}\0${st.mode}\0${st.size}\0${st.mtimeMs}\n`);
      if (st.isDirectory()) walk(abs, `${rel}${name}/`);
      else if (st.isSymbolicLink()) hash.update(fs.readlinkSync(abs));
    }
  };
  walk(root, '');
  return hash.digest('hex').slice(0, 16);
}

/**
 * Copies the tree: files 0555 (readable and executable, so a script needs no executable bit of its own),
 * symlinks kept when they point inside the skill and dropped (with a warning) when they point out of it.
 * `over`: lays the tree over a copy already made (an overlay's files replace and add to it). Returns the
 * folders it made, for the caller to lock (0555) once every layer is in.
 */
function copyTree(srcRoot: string, dstRoot: string, excludes: ReadonlySet<string>, warnings: string[], over = false): string[] {
  const dirs: string[] = [];
  const walk = (src: string, dst: string): void => {
    // Laid over a copy already made (an overlay): folders may exist, files are replaced.
    if (!over || !fs.existsSync(dst)) {
      fs.mkdirSync(dst);
      dirs.push(dst);
    }
    for (const name of fs.readdirSync(src)) {
      if (excludes.has(name) || (over && isWriteInProgress(name))) continue;
      const s = path.join(src, name);
      const d = path.join(dst, name);
      const st = fs.lstatSync(s);
      if (over) {
        const there = fs.lstatSync(d, { throwIfNoEntry: false });
        if (there && !(st.isDirectory() && there.isDirectory())) fs.rmSync(d, { recursive: true, force: true });
      }
      if (st.isDirectory()) walk(s, d);
      else if (st.isFile()) {
        fs.copyFileSync(s, d);
        fs.chmodSync(d, 0o555);
      } else if (st.isSymbolicLink()) {
        let real: string | undefined;
        try {
          real = fs.realpathSync(s);
        } catch {
          real = undefined;
        }
        if (real && isInside(srcRoot, real)) fs.symlinkSync(path.relative(path.dirname(s), real), d);
        else warnings.push(`skipped ${path.relative(srcRoot, s)}: a symlink that points outside the skill or nowhere`);
      }
    }
  };
  walk(srcRoot, dstRoot);
  return dirs;
}

interface SnapshotMeta {
  /** Fingerprint of the copy itself, to notice a script that changed it (root ignores 0555; an owner can chmod). */
  copy: string;
  warnings: string[];
}

/**
 * Returns the read-only snapshot of `realRoot` (with `overlayRoot`'s files laid over it) under
 * `snapshotsDir/<key>/<fingerprint>`, making it when missing or when the copy no longer matches what was
 * made. The fingerprint covers both trees, so an edit on either side makes a new snapshot. Older
 * fingerprints of the same key are removed. Concurrent first runs race safely: each copies into a private
 * temp folder and renames; the loser discards its copy.
 */
export function ensureSnapshot(
  snapshotsDir: string,
  key: string,
  realRoot: string,
  /** Names never copied, from {@link snapshotExcludes}. */
  excludes: ReadonlySet<string>,
  known?: KnownSnapshots,
  /** Real path of a folder of newer versions of some files (see RunRequest.overlayRoot), laid over the copy. */
  overlayRoot?: string,
): SkillSnapshot {
  const fingerprint = overlayRoot
    ? createHash('sha256').update(`${fingerprintTree(realRoot, excludes)}+${fingerprintTree(overlayRoot, excludes)}`).digest('hex').slice(0, 16)
    : fingerprintTree(realRoot, excludes);
  const keyDir = path.join(snapshotsDir, key);
  const dir = path.join(keyDir, fingerprint);
  const metaFile = `${dir}.json`;
  // What this runner already read of the copy (meta, entries) is not read again; the copy itself is
  // checked unless it was checked after its last run (see KnownSnapshots).
  const seen = known?.get(dir);
  if (seen) {
    if (seen.clean) return { dir, entries: seen.entries, created: false, warnings: seen.warnings };
    try {
      if (fingerprintTree(dir, excludes) === seen.copy) return { dir, entries: seen.entries, created: false, warnings: seen.warnings };
    } catch {
      // Gone: rebuild below.
    }
    known?.forget(dir);
  }
  if (fs.existsSync(dir)) {
    try {
      const meta = JSON.parse(fs.readFileSync(metaFile, 'utf8')) as SnapshotMeta;
      if (fingerprintTree(dir, excludes) === meta.copy) {
        const entries = fs.readdirSync(dir);
        known?.remember(dir, meta, entries);
        return { dir, entries, created: false, warnings: meta.warnings };
      }
    } catch {
      // No or unreadable meta: rebuild below.
    }
    removeTree(dir);
  }
  const warnings: string[] = [];
  fs.mkdirSync(keyDir, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(keyDir, '.tmp-'));
  const staging = path.join(tmp, 'tree');
  const dirs = copyTree(realRoot, staging, excludes, warnings);
  if (overlayRoot) dirs.push(...copyTree(overlayRoot, staging, excludes, warnings, true));
  // Lock the folders last, deepest first, so the copy itself could write into them. The copy's own root
  // stays writable until it has moved: moving a folder to another parent rewrites its `..` entry, which
  // needs write permission on the folder itself (root is exempt, which is how every suite missed it).
  for (const d of dirs.sort((a, b) => b.length - a.length)) if (d !== staging) fs.chmodSync(d, 0o555);
  const meta: SnapshotMeta = { copy: fingerprintTree(staging, excludes), warnings };
  fs.writeFileSync(metaFile, JSON.stringify(meta));
  try {
    fs.renameSync(staging, dir);
    fs.chmodSync(dir, 0o555);
  } catch (err) {
    if (!fs.existsSync(dir)) throw err;
    removeTree(staging);
  }
  fs.rmdirSync(tmp);
  for (const old of fs.readdirSync(keyDir)) {
    if (old === fingerprint || old === `${fingerprint}.json`) continue;
    // Another process may be copying into its own .tmp- folder now; one that old was left by a process that died.
    if (!old.startsWith('.tmp-') || abandoned(path.join(keyDir, old))) removeTree(path.join(keyDir, old));
  }
  const entries = fs.readdirSync(dir);
  known?.forgetOthers(keyDir, dir);
  known?.remember(dir, meta, entries);
  return { dir, entries, created: true, warnings };
}

/** How old a `.tmp-` staging folder must be to count as left by a process that died while copying. */
const ABANDONED_STAGING_MS = 60 * 60_000;

function abandoned(staging: string): boolean {
  const st = fs.statSync(staging, { throwIfNoEntry: false });
  return st !== undefined && Date.now() - st.mtimeMs > ABANDONED_STAGING_MS;
}

/** Removes a tree that may hold read-only directories (made writable first, which non-root needs). */
export function removeTree(target: string): void {
  const unlock = (dir: string): void => {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(dir);
    } catch {
      return;
    }
    if (!st.isDirectory()) return;
    if ((st.mode & 0o700) !== 0o700) fs.chmodSync(dir, 0o755);
    for (const name of fs.readdirSync(dir)) unlock(path.join(dir, name));
  };
  if (process.getuid?.() !== 0) unlock(target);
  fs.rmSync(target, { recursive: true, force: true });
}

/** {@link removeTree} on the thread pool. Never rejects for a tree that is already gone. */
export async function removeTreeAsync(target: string): Promise<void> {
  const p = fs.promises;
  const unlock = async (dir: string): Promise<void> => {
    let st: fs.Stats;
    try {
      st = await p.lstat(dir);
    } catch {
      return;
    }
    if (!st.isDirectory()) return;
    if ((st.mode & 0o700) !== 0o700) await p.chmod(dir, 0o755);
    for (const name of await p.readdir(dir)) await unlock(path.join(dir, name));
  };
  if (process.getuid?.() !== 0) await unlock(target);
  await p.rm(target, { recursive: true, force: true });
}
