import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SyncSkillsHost } from '../host/skillsHost';
import type { KnownSnapshots } from './knownSnapshots';
import { copyTree, fingerprintCopy, fingerprintTree, type TreeHost } from './sourceTree';
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

/** The names left out of snapshots: the fixed ones and the runner's dependency folders. */
export function snapshotExcludes(excludeNames: readonly string[]): Set<string> {
  return new Set([...SNAPSHOT_EXCLUDES, ...excludeNames]);
}

/** Where a snapshot's source is read: the skill folder and its overlay, through a host. */
export interface SnapshotSource {
  files: SyncSkillsHost;
  /** Real path of the skill folder (in `files`). */
  root: string;
  /** Real path of a folder of newer versions of some files (see RunRequest.overlayRoot), laid over the copy. */
  overlay?: string;
}

interface SnapshotMeta {
  /** Fingerprint of the copy itself, to notice a script that changed it (root ignores 0555; an owner can chmod). */
  copy: string;
  warnings: string[];
}

/**
 * Returns the read-only snapshot of the source's root (with its overlay's files laid over it) under
 * `snapshotsDir/<key>/<fingerprint>`, making it when missing or when the copy no longer matches what was
 * made. The fingerprint covers both trees, so an edit on either side makes a new snapshot. Older
 * fingerprints of the same key are removed. Concurrent first runs race safely: each copies into a private
 * temp folder and renames; the loser discards its copy.
 */
export function ensureSnapshot(
  snapshotsDir: string,
  key: string,
  source: SnapshotSource,
  /** Names never copied, from {@link snapshotExcludes}. */
  excludes: ReadonlySet<string>,
  known?: KnownSnapshots,
): SkillSnapshot {
  const { files, root, overlay } = source;
  const fingerprint = overlay
    ? createHash('sha256').update(`${fingerprintTree(files, root, excludes)}+${fingerprintTree(files, overlay, excludes)}`).digest('hex').slice(0, 16)
    : fingerprintTree(files, root, excludes);
  const keyDir = path.join(snapshotsDir, key);
  const dir = path.join(keyDir, fingerprint);
  const metaFile = `${dir}.json`;
  // What this runner already read of the copy (meta, entries) is not read again; the copy itself is
  // checked unless it was checked after its last run (see KnownSnapshots).
  const seen = known?.get(dir);
  if (seen) {
    if (seen.clean) return { dir, entries: seen.entries, created: false, warnings: seen.warnings };
    try {
      if (fingerprintCopy(dir, excludes) === seen.copy) return { dir, entries: seen.entries, created: false, warnings: seen.warnings };
    } catch {
      // Gone: rebuild below.
    }
    known?.forget(dir);
  }
  if (fs.existsSync(dir)) {
    try {
      const meta = JSON.parse(fs.readFileSync(metaFile, 'utf8')) as SnapshotMeta;
      if (fingerprintCopy(dir, excludes) === meta.copy) {
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
  const dirs = copyTree(files, root, staging, excludes, warnings);
  if (overlay) dirs.push(...copyTree(files, overlay, staging, excludes, warnings, true));
  // Lock the folders last, deepest first, so the copy itself could write into them. The copy's own root
  // stays writable until it has moved: moving a folder to another parent rewrites its `..` entry, which
  // needs write permission on the folder itself (root is exempt, which is how every suite missed it).
  for (const d of dirs.sort((a, b) => b.length - a.length)) if (d !== staging) fs.chmodSync(d, 0o555);
  const meta: SnapshotMeta = { copy: fingerprintCopy(staging, excludes), warnings };
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
