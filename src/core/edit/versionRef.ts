import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { isTempName } from '../os/atomicFile';
import { StaleRefError } from './editErrors';
import { compareStrings } from '../text/compareStrings';
import { localDisk } from '../host/localDisk';
import type { SkillsHost } from '../host/skillsHost';
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

/** Bytes hashed per read: a file of any size is hashed in pages, never held whole. */
const HASH_PAGE = 4 * 1024 * 1024;

/**
 * The ref and size of a file read through `host` page by page, or null when it does not exist. A FIFO, device or
 * folder throws as the host's reads do (never blocks).
 */
async function hashFile(host: Pick<SkillsHost, 'readFile'>, file: string): Promise<{ ref: VersionRef; size: number } | null> {
  const hash = createHash('sha256');
  let offset = 0;
  for (;;) {
    const page = await host.readFile(file, { range: { offset, length: HASH_PAGE } });
    if (!page) {
      if (offset === 0) return null;
      throw Object.assign(new Error(`${file} was removed while it was being read; try again.`), { code: 'ENOENT' });
    }
    hash.update(page.bytes);
    offset += page.bytes.length;
    if (page.bytes.length === 0 || offset >= page.size) return { ref: `sha256:${hash.digest('hex')}`, size: offset };
  }
}

/** The version ref of a file (through `host`, the local disk by default), or null when it does not exist. */
export async function fileVersionRef(file: string, host: Pick<SkillsHost, 'readFile'> = localDisk): Promise<VersionRef | null> {
  return (await hashFile(host, file))?.ref ?? null;
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

/**
 * Reads a skill folder (through `host`, the local disk by default) and returns its manifest. Temp files left by
 * atomic writes, symlinks, and version-control, archive and dependency folders (SKIP.vcs, .archive, .dependencies)
 * are not part of the version.
 */
export async function skillManifest(dir: string, host: SkillsHost = localDisk): Promise<SkillManifest> {
  const rels = await walkSkill(host, dir, { skipDirs: [...SKIP.vcs, ...SKIP.archive, ...SKIP.dependencies], skipName: isTempName, maxFiles: Infinity, maxDepth: Infinity });
  const files: ManifestEntry[] = [];
  for (const rel of rels) {
    const hashed = await hashFile(host, path.join(dir, ...rel.split('/')));
    if (hashed) files.push({ path: rel, ref: hashed.ref, size: hashed.size });
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

/** Result of comparing an expected ref with the file as the host has it now. */
export interface RefCheck {
  fresh: boolean;
  expectedRef: VersionRef;
  /** null when the file does not exist (any more). */
  currentRef: VersionRef | null;
}

/** Compares a file's current ref with the one the caller last saw. */
export async function checkFileRef(file: string, expectedRef: VersionRef, host: Pick<SkillsHost, 'readFile'> = localDisk): Promise<RefCheck> {
  const currentRef = await fileVersionRef(file, host);
  return { fresh: currentRef === expectedRef, expectedRef, currentRef };
}

/** Throws {@link StaleRefError} when the file changed (in its host) since `expectedRef`; returns the current ref otherwise. */
export async function assertFileFresh(file: string, expectedRef: VersionRef, host: Pick<SkillsHost, 'readFile'> = localDisk): Promise<VersionRef> {
  const check = await checkFileRef(file, expectedRef, host);
  if (!check.fresh) throw new StaleRefError(file, expectedRef, check.currentRef);
  return expectedRef;
}

/** Throws {@link StaleRefError} when any file of the skill changed since `expectedRef`; returns the current manifest otherwise. */
export async function assertSkillFresh(dir: string, expectedRef: VersionRef, host: SkillsHost = localDisk): Promise<SkillManifest> {
  const manifest = await skillManifest(dir, host);
  if (manifest.ref !== expectedRef) throw new StaleRefError(dir, expectedRef, manifest.ref);
  return manifest;
}
