import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { isTempName } from './atomicWrite';
import { StaleRefError } from './errors';
import { compareStrings } from '../text/compareStrings';
import { createAsyncNodeHost } from '../host/nodeHost';
import { SKIP, walkSkill } from '../paths/walkSkill';

/** A content-derived version ref: `sha256:` followed by 64 lowercase hex digits. */
export type VersionRef = `sha256:${string}`;

/** True for a well-formed ref ("sha256:" and 64 lowercase hex digits). */
export function isVersionRef(value: unknown): value is VersionRef {
  return typeof value === 'string' && /^sha256:[0-9a-f]{64}$/.test(value);
}

/** The version ref of some content (a file's bytes; strings are hashed as UTF-8). */
export function digestOf(content: string | Uint8Array): VersionRef {
  return `sha256:${createHash('sha256').update(content).digest('hex')}`;
}

/** The hex part of a ref ("sha256:abc…" → "abc…"). */
export function refHex(ref: VersionRef): string {
  return ref.slice('sha256:'.length);
}

/** The version ref of a file on disk, or null when it does not exist. */
export async function fileVersionRef(file: string): Promise<VersionRef | null> {
  try {
    return digestOf(await fs.readFile(file));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** One file in a {@link SkillManifest}. */
export interface ManifestEntry {
  /** Path relative to the skill folder, forward slashes. */
  path: string;
  ref: VersionRef;
  size: number;
}

/** Every file of a skill folder with its ref, and the ref of the skill as a whole. */
export interface SkillManifest {
  /** Digest over the sorted (path, file ref) pairs: changes when any file is added, removed or edited. */
  ref: VersionRef;
  files: ManifestEntry[];
}

const host = createAsyncNodeHost();

/**
 * Reads a skill folder and returns its manifest. Temp files left by atomic writes, symlinks, and
 * version-control, archive and dependency folders (SKIP.vcs, .archive, .dependencies) are not part of the version.
 */
export async function skillManifest(dir: string): Promise<SkillManifest> {
  const rels = await walkSkill(host, dir, { skipDirs: [...SKIP.vcs, ...SKIP.archive, ...SKIP.dependencies], skipName: isTempName, maxFiles: Infinity, maxDepth: Infinity });
  const files: ManifestEntry[] = [];
  for (const rel of rels) {
    const data = await fs.readFile(path.join(dir, ...rel.split('/')));
    files.push({ path: rel, ref: digestOf(data), size: data.length });
  }
  files.sort((a, b) => compareStrings(a.path, b.path));
  return { ref: skillRefOf(files), files };
}

/** The skill-level ref for a list of (path, ref) pairs, independent of their order. */
export function skillRefOf(files: readonly Pick<ManifestEntry, 'path' | 'ref'>[]): VersionRef {
  const sorted = [...files].sort((a, b) => compareStrings(a.path, b.path));
  return digestOf(sorted.map((f) => `${f.path}\0${f.ref}\n`).join(''));
}

/** What changed between two manifests of the same skill. */
export interface ManifestDiff {
  added: string[];
  removed: string[];
  changed: string[];
}

/** Lists the files added, removed and changed from `before` to `after`. */
export function diffManifests(before: SkillManifest, after: SkillManifest): ManifestDiff {
  const old = new Map(before.files.map((f) => [f.path, f.ref]));
  const now = new Map(after.files.map((f) => [f.path, f.ref]));
  const diff: ManifestDiff = { added: [], removed: [], changed: [] };
  for (const [p, ref] of now) {
    const prev = old.get(p);
    if (prev === undefined) diff.added.push(p);
    else if (prev !== ref) diff.changed.push(p);
  }
  for (const p of old.keys()) if (!now.has(p)) diff.removed.push(p);
  return diff;
}

/** Result of comparing an expected ref with the current state on disk. */
export interface RefCheck {
  fresh: boolean;
  expectedRef: VersionRef;
  /** null when the file does not exist (any more). */
  currentRef: VersionRef | null;
}

/** Compares a file's current ref with the one the caller last saw. */
export async function checkFileRef(file: string, expectedRef: VersionRef): Promise<RefCheck> {
  const currentRef = await fileVersionRef(file);
  return { fresh: currentRef === expectedRef, expectedRef, currentRef };
}

/** Throws {@link StaleRefError} when the file changed on disk since `expectedRef`; returns the current ref otherwise. */
export async function assertFileFresh(file: string, expectedRef: VersionRef): Promise<VersionRef> {
  const check = await checkFileRef(file, expectedRef);
  if (!check.fresh) throw new StaleRefError(file, expectedRef, check.currentRef);
  return expectedRef;
}

/** Throws {@link StaleRefError} when any file of the skill changed since `expectedRef`; returns the current manifest otherwise. */
export async function assertSkillFresh(dir: string, expectedRef: VersionRef): Promise<SkillManifest> {
  const manifest = await skillManifest(dir);
  if (manifest.ref !== expectedRef) throw new StaleRefError(dir, expectedRef, manifest.ref);
  return manifest;
}
