import * as path from 'node:path';
import { ToolError } from '../tools/toolError';
import { isInside } from '../paths/isInside';
import { resolveInRootVia, type PathRefusal } from '../paths/resolveInRoot';
import { compareStrings } from '../text/compareStrings';
import type { FileStamp, PathKind, SkillsHost } from '../host/skillsHost';
import { SKIP, walkSkill } from '../paths/walkSkill';

export { isInside };

function refuse(skill: string, rel: string, why: string): ToolError {
  return new ToolError(
    'path_refused',
    `Path '${rel}' of skill '${skill}' is refused: ${why}.`,
    "Pass a plain path relative to the skill's root folder, such as 'references/guide.md' (no '..', no leading '/', no percent-encoding); the load receipt lists the files you may read.",
  );
}

/** Why a path is refused, in the words of the read tools (the rule itself is src/core/paths). */
const REFUSED: Partial<Record<PathRefusal, string>> = {
  nul: 'it contains a NUL byte',
  'percent-encoded': 'it contains percent-encoding',
  absolute: 'it is absolute',
  home: 'it is absolute',
  outside: 'it resolves outside the skill folder',
  'link-outside': 'it is a symbolic link to a place outside the skill folder',
};

/** The tools' refusal of a path of a skill, for the path rule's reason: what read says, and run_script for its script. */
export function skillPathError(skill: string, rootDir: string, rel: string, reason: PathRefusal): ToolError {
  if (reason === 'root-missing') return new ToolError('not_found', `The folder of skill '${skill}' (${path.resolve(rootDir)}) no longer exists.`, 'Reload the skill list; the skill may have been moved or deleted.');
  if (reason === 'not-found') {
    return new ToolError('not_found', `Skill '${skill}' has no file '${rel}'.`, `Check the path against the files listed in the load receipt, or call list_docs for '${skill}'; paths are relative to ${path.resolve(rootDir)}.`);
  }
  return refuse(skill, reason === 'nul' ? rel.replace(/\0/g, '\\0') : rel, REFUSED[reason] ?? 'it is not a plain relative path');
}

/** A path of a skill resolved inside it: its real path, what it is, and its path relative to the skill root. */
export interface SkillPath {
  real: string;
  /** `other`: neither a regular file nor a folder (a FIFO, a device...), which readers refuse. */
  kind: PathKind;
  /** Bytes, for a file. */
  size: number;
  /** The file's stamp (size, mtime, inode), for a file: what caches compare. */
  stamp?: FileStamp;
  relative: string;
}

/**
 * Resolves a model-supplied path under a skill root and proves it stays there: refuses NUL bytes,
 * percent-encoding, absolute and drive paths, `..` that climbs out, and symlinks whose real target
 * lies outside the real root. Returns the real absolute path of an existing file or folder, asked of `files`.
 */
export async function resolveSkillPath(files: SkillsHost, skill: string, rootDir: string, rel: string): Promise<SkillPath> {
  const r = await resolveInRootVia(files, rootDir, rel, { allowRoot: true });
  if (!r.ok) throw skillPathError(skill, rootDir, rel, r.reason);
  const real = r.real ?? r.abs;
  const kind = (await files.kind(real)) ?? 'other';
  const stamp = kind === 'file' ? await files.stat(real) : undefined;
  return { real, kind, size: stamp?.size ?? 0, stamp, relative: path.relative(r.realRoot, real).split(path.sep).join('/') || '.' };
}

const DOC_EXT = /\.(md|markdown|txt|mdx|rst)$/i;

/**
 * The skill's docs (seed 004): Markdown and text files under its root, except SKILL.md itself,
 * sorted by path; skips dependency, VCS and run-workspace folders, hidden entries, and links out of the skill.
 */
export async function listDocFiles(host: SkillsHost, rootDir: string, limit = 1000): Promise<{ path: string; size_bytes: number }[]> {
  const realRoot = await host.realPath(rootDir);
  if (!realRoot) throw Object.assign(new Error(`ENOENT: the skill folder ${rootDir} does not exist`), { code: 'ENOENT' });
  const files = await walkSkill(host, realRoot, {
    skipHidden: true,
    skipDirs: [...SKIP.vcs, ...SKIP.dependencies, ...SKIP.runFolders],
    include: (rel) => DOC_EXT.test(rel) && rel.toLowerCase() !== 'skill.md',
    followLinksInside: true,
    maxFiles: limit,
    maxDepth: 8,
  });
  const found: { path: string; size_bytes: number }[] = [];
  for (const rel of files.sort(compareStrings)) {
    const st = await host.stat(path.join(realRoot, ...rel.split('/')));
    if (st) found.push({ path: rel, size_bytes: st.size });
  }
  return found;
}
