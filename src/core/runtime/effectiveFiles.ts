import * as path from 'node:path';
import { compareStrings } from '../text/compareStrings';
import { checkRelative } from '../paths/resolveInRoot';
import { overlayWins } from '../paths/overlayRule';
import { listDocFiles } from './skillPaths';
import type { SkillSource } from './runtimeTypes';
import type { SkillsHost } from '../host/skillsHost';

/** The parts of a loaded skill (or a record) the lookups need. */
interface SkillRef {
  id: string;
  root_dir: string;
}


/**
 * The folder a reader should take `rel` from: the source's overlay of the skill (newer revisions of a read-only
 * plugin or pack skill, see `SkillSource.overlayDir`) when it holds that file, else the skill folder. Paths that
 * would leave the overlay fall through to the skill folder, whose checks then refuse them.
 */
export async function effectiveRoot(files: SkillsHost, source: SkillSource, skill: SkillRef, rel: string): Promise<string> {
  const overlay = source.overlayDir?.(skill.id);
  if (!overlay) return skill.root_dir;
  const checked = checkRelative(rel);
  if (!checked.ok) return skill.root_dir;
  return overlayWins(await files.kind(path.join(overlay, ...checked.rel.split('/')))) ? overlay : skill.root_dir;
}

/**
 * The docs of a skill as readers see them: the skill folder's, plus those that exist only in the source's
 * overlay (files an edit added to a read-only skill), sorted by path; an overlay copy's size wins.
 */
export async function effectiveDocFiles(files: SkillsHost, source: SkillSource | undefined, skill: SkillRef): Promise<{ path: string; size_bytes: number }[]> {
  const own = await listDocFiles(files, skill.root_dir);
  const overlay = source?.overlayDir?.(skill.id);
  if (!overlay || (await files.kind(overlay)) !== 'directory') return own;
  const merged = new Map(own.map((d) => [d.path, d]));
  for (const d of await listDocFiles(files, overlay)) merged.set(d.path, d);
  return [...merged.values()].sort((a, b) => compareStrings(a.path, b.path));
}

/** The SKILL.md to read for a skill: the overlay copy when the source keeps one, else `location`. */
export async function effectiveLocation(files: SkillsHost, source: SkillSource, skill: SkillRef & { location: string }): Promise<string> {
  const overlay = source.overlayDir?.(skill.id);
  if (!overlay) return skill.location;
  const copy = path.join(overlay, 'SKILL.md');
  return (await files.kind(copy)) === 'file' ? copy : skill.location;
}
