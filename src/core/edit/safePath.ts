import * as path from 'node:path';
import { EditError } from './editErrors';
import { localDisk } from '../host/localDisk';
import type { SkillsHost } from '../host/skillsHost';
import { checkRelative, resolveInRootVia, type PathRefusal } from '../paths/resolveInRoot';

/** The edit engine's sentence for a refused path (the rule itself is src/core/paths). */
function unsafe(reason: PathRefusal, what: string, relPath: string, base: string, real?: string, link?: string): EditError {
  const says: Record<PathRefusal, string> = {
    empty: 'it names the folder itself, not a file inside it',
    nul: 'it must be a non-empty relative path like "SKILL.md" or "references/guide.md"',
    'percent-encoded': 'it is percent-encoded; write the file name as plain text',
    absolute: 'absolute paths are not allowed; give the path relative to the skill folder',
    home: 'absolute paths are not allowed (~ is not expanded); give the path relative to the skill folder',
    outside: '".." segments are not allowed when they leave the folder; the file must stay inside the skill folder',
    'link-outside': `"${link}" is a symbolic link to ${real}, outside the skill folder ${base}. Use a file that really lies inside the skill folder`,
    'not-found': 'it does not exist',
    'root-missing': `the folder ${base} does not exist`,
  };
  return new EditError('UNSAFE_PATH', `Invalid ${what} "${relPath}": ${says[reason]}.`);
}

/**
 * Normalises a path relative to a skill folder ("SKILL.md", "scripts/run.py") and
 * refuses anything that could escape the folder: absolute paths, drive letters,
 * `..` that climbs out, NUL bytes, percent-encoding. Returns the path with forward slashes.
 */
export function normalizeRelativePath(relPath: string, what = 'path'): string {
  const checked = relPath === '' ? ({ ok: false, reason: 'nul' } as const) : checkRelative(relPath);
  if (!checked.ok) throw unsafe(checked.reason, what, relPath, '');
  return checked.rel;
}

/** Joins a root folder and a checked relative path; the result is guaranteed to be inside `root` (lexically). */
export function joinInside(root: string, relPath: string, what = 'path'): string {
  return path.resolve(root, ...normalizeRelativePath(relPath, what).split('/'));
}

/**
 * {@link joinInside}, plus proof that symbolic links do not lead out: the real path of the target (or, when it
 * does not exist yet, of its deepest existing parent) must lie inside the real path of `root`. So a skill whose
 * `references` is a link to `/etc`, or whose `notes.md` links to `~/.ssh/id_rsa`, can neither be read nor written
 * through. The root itself may be a link (a symlinked skill folder): what counts is what lies inside its target.
 * Links are looked at through `host` (the local disk by default).
 */
export async function resolveInsideReal(root: string, relPath: string, what = 'path', host: Pick<SkillsHost, 'realPath'> = localDisk): Promise<string> {
  const full = joinInside(root, relPath, what);
  const r = await resolveInRootVia(host, root, relPath, { mustExist: false });
  if (r.ok || r.reason === 'root-missing') return full;
  if (r.reason === 'link-outside') {
    const base = path.resolve(root);
    const link = await linkThatLeaves(host, base, r.rel ?? relPath);
    throw unsafe(r.reason, what, relPath, base, r.real, link);
  }
  throw unsafe(r.reason, what, relPath, path.resolve(root));
}

/** The first part of `rel` (from the root down) whose real path leaves the real root: the link to name in the message. */
async function linkThatLeaves(host: Pick<SkillsHost, 'realPath'>, base: string, rel: string): Promise<string> {
  const parts = rel.split('/');
  for (let i = 1; i <= parts.length; i++) {
    const probe = parts.slice(0, i).join('/');
    const r = await resolveInRootVia(host, base, probe, { mustExist: false });
    if (!r.ok && r.reason === 'link-outside') return probe;
  }
  return rel;
}
