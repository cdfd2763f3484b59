import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { z } from 'zod';
import type { WritableHost } from '../host/fileWrites';
import { localDisk } from '../host/localDisk';
import { answerOrUndefined, readTextFile } from '../host/skillsHost';
import { isInside } from '../paths/isInside';
import { EditError } from './editErrors';
import { resolveInsideReal } from './safePath';
import { skillManifest, type VersionRef } from './versionRef';

/** Name of the archive area; skill discovery should skip folders with this name. */
export const ARCHIVE_DIR_NAME = '.archived';
const MANIFEST = 'manifest.json';
/** Most bytes of a manifest read (one is a few hundred bytes; a larger one was not written by this module). */
const MAX_MANIFEST_BYTES = 64 * 1024;

const manifestSchema = z.object({
  v: z.literal(1),
  id: z.string().min(1),
  name: z.string().min(1),
  originalPath: z.string().min(1),
  archivedAt: z.string(),
  reason: z.string().optional(),
  skillId: z.string().optional(),
  versionRef: z.string(),
});

/** What archiving recorded: enough to put the skill back where it was. */
export interface ArchiveManifest {
  v: 1;
  /** Folder name of the entry inside the archive area. */
  id: string;
  /** The skill folder's name. */
  name: string;
  /** Absolute path the skill folder had. */
  originalPath: string;
  /** ISO 8601. */
  archivedAt: string;
  reason?: string;
  skillId?: string;
  /** The skill's version ref when it was archived. */
  versionRef: VersionRef;
}

/** An entry of the archive area. */
export interface ArchivedSkill {
  manifest: ArchiveManifest;
  /** Folder of the entry (holds manifest.json and the skill folder). */
  entryDir: string;
  /** Where the archived skill folder is now. */
  skillDir: string;
  /** False when a crash interrupted archiving or restoring (manifest without folder). */
  complete: boolean;
}

/** Options of {@link archiveSkill}. */
export interface ArchiveOptions {
  /** Archive area; default `<parent of the skill>/.archived`. Keep it on the same file system. */
  archiveRoot?: string;
  reason?: string;
  skillId?: string;
  now?: Date;
  /** Where the skill and the archive live (the local disk by default). */
  files?: WritableHost;
}

/**
 * Refuses an archive area inside `parent` (the skills root) that really lies elsewhere: a `.archived` that is a
 * symbolic link out (a checked-in repo may hold one) would carry a skill out of its root, or bring a folder in.
 * An area configured outside `parent` is the caller's choice and is not checked.
 */
async function assertAreaInside(files: WritableHost, parent: string, area: string): Promise<void> {
  if (isInside(parent, area) && area !== parent) await resolveInsideReal(parent, path.relative(parent, area), 'archive folder', files);
}

/** The default archive area for skills living in `skillsRoot`. */
export function defaultArchiveRoot(skillDir: string): string {
  return path.join(path.dirname(path.resolve(skillDir)), ARCHIVE_DIR_NAME);
}

/**
 * Archives a skill reversibly: writes a manifest (where it came from, when, its version
 * ref), then moves the whole folder into `<archiveRoot>/<id>/<name>` with one rename.
 */
export async function archiveSkill(skillDir: string, options: ArchiveOptions = {}): Promise<ArchivedSkill> {
  const files = options.files ?? localDisk;
  const source = path.resolve(skillDir);
  if ((await files.kind(source)) !== 'directory') throw new EditError('ARCHIVE_NOT_FOUND', `Cannot archive ${source}: it is not an existing skill folder.`);
  const root = path.resolve(options.archiveRoot ?? defaultArchiveRoot(source));
  await assertAreaInside(files, path.dirname(source), root);
  const name = path.basename(source);
  const now = options.now ?? new Date();
  const id = `${name}-${now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}-${randomBytes(3).toString('hex')}`;
  const entryDir = path.join(root, id);
  const manifest: ArchiveManifest = {
    v: 1,
    id,
    name,
    originalPath: source,
    archivedAt: now.toISOString(),
    reason: options.reason,
    skillId: options.skillId,
    versionRef: (await skillManifest(source, files)).ref,
  };
  await files.writeFile(path.join(entryDir, MANIFEST), JSON.stringify(manifest, null, 2) + '\n');
  const dest = path.join(entryDir, name);
  await files.rename(source, dest);
  return { manifest, entryDir, skillDir: dest, complete: true };
}

/** One folder name: not empty, no separator, not `.` or `..`, no NUL. */
function isPlainSegment(name: string): boolean {
  return name !== '.' && name !== '..' && !/[/\\\0]/.test(name);
}

async function readEntry(files: WritableHost, entryDir: string): Promise<ArchivedSkill | undefined> {
  const raw = await readTextFile(files, path.join(entryDir, MANIFEST), MAX_MANIFEST_BYTES);
  if (raw === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) return undefined;
  const manifest = parsed.data as ArchiveManifest;
  // The manifest is a file in the (possibly shared, checked-in) skills folder: its name must be one plain folder
  // name and its id the entry's own folder, or a crafted one could make restore move a folder from anywhere.
  if (!isPlainSegment(manifest.name) || manifest.id !== path.basename(entryDir)) return undefined;
  const skillDir = path.join(entryDir, manifest.name);
  const complete = (await files.kind(skillDir)) === 'directory';
  return { manifest, entryDir, skillDir, complete };
}

/** Lists the archive area, newest first. Entries with an unreadable manifest are left out. */
export async function listArchived(archiveRoot: string, files: WritableHost = localDisk): Promise<ArchivedSkill[]> {
  const listed = await answerOrUndefined(() => files.readDirectory(archiveRoot));
  const entries: ArchivedSkill[] = [];
  for (const { name: n } of listed ?? []) {
    const e = await readEntry(files, path.join(archiveRoot, n));
    if (e) entries.push(e);
  }
  return entries.sort((a, b) => (a.manifest.archivedAt < b.manifest.archivedAt ? 1 : -1));
}

/**
 * Moves an archived skill back to its original path (or `targetPath`) and removes the
 * entry. Refuses when the target exists, so nothing is ever overwritten.
 */
export async function restoreArchived(archiveRoot: string, id: string, options: { targetPath?: string; files?: WritableHost } = {}): Promise<{ restoredTo: string; manifest: ArchiveManifest }> {
  const files = options.files ?? localDisk;
  if (path.basename(archiveRoot) === ARCHIVE_DIR_NAME) await assertAreaInside(files, path.dirname(path.resolve(archiveRoot)), path.resolve(archiveRoot));
  const entry = path.basename(id) === id ? await readEntry(files, path.join(archiveRoot, id)) : undefined;
  if (!entry || !entry.complete) {
    const known = (await listArchived(archiveRoot, files)).map((e) => e.manifest.id);
    throw new EditError('ARCHIVE_NOT_FOUND', `No archived skill "${id}" in ${archiveRoot}${known.length ? ` (archived: ${known.join(', ')})` : ' (the archive is empty)'}.`);
  }
  // In the usual layout (<skills root>/.archived) a skill goes back into that skills root, whatever originalPath
  // says: the manifest may have been edited, and the folder may have moved since.
  const defaultTarget = path.basename(archiveRoot) === ARCHIVE_DIR_NAME ? path.join(path.dirname(path.resolve(archiveRoot)), entry.manifest.name) : entry.manifest.originalPath;
  const target = path.resolve(options.targetPath ?? defaultTarget);
  if ((await files.kind(target, { noFollow: true })) !== undefined) {
    throw new EditError('TARGET_EXISTS', `Cannot restore ${entry.manifest.name}: ${target} already exists. Archive or rename that skill first, or restore to another path.`);
  }
  await files.mkdir(path.dirname(target));
  await files.rename(entry.skillDir, target);
  await files.remove(entry.entryDir);
  return { restoredTo: target, manifest: entry.manifest };
}
