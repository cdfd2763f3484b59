import * as fs from 'node:fs';
import * as path from 'node:path';
import { ToolError } from '../tools/toolError';
import { isInside } from '../paths/isInside';
import { resolveInRoot, type PathRefusal } from '../paths/resolveInRoot';
import { compareStrings } from '../text/compareStrings';
import { createAsyncNodeHost } from '../host/nodeHost';
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

/**
 * Resolves a model-supplied path under a skill root and proves it stays there: refuses NUL bytes,
 * percent-encoding, absolute and drive paths, `..` that climbs out, and symlinks whose real target
 * lies outside the real root. Returns the real absolute path of an existing file or folder.
 */
export async function resolveSkillPath(skill: string, rootDir: string, rel: string): Promise<{ real: string; stat: fs.Stats; relative: string }> {
  const r = resolveInRoot(rootDir, rel, { allowRoot: true });
  if (!r.ok) {
    if (r.reason === 'root-missing') throw new ToolError('not_found', `The folder of skill '${skill}' (${path.resolve(rootDir)}) no longer exists.`, 'Reload the skill list; the skill may have been moved or deleted.');
    if (r.reason === 'not-found') {
      throw new ToolError('not_found', `Skill '${skill}' has no file '${rel}'.`, `Check the path against the files listed in the load receipt, or call list_docs for '${skill}'; paths are relative to ${path.resolve(rootDir)}.`);
    }
    throw refuse(skill, r.reason === 'nul' ? rel.replace(/\0/g, '\\0') : rel, REFUSED[r.reason] ?? 'it is not a plain relative path');
  }
  const real = r.real ?? r.abs;
  const stat = await fs.promises.stat(real);
  return { real, stat, relative: path.relative(r.realRoot, real).split(path.sep).join('/') || '.' };
}

const DOC_EXT = /\.(md|markdown|txt|mdx|rst)$/i;
const host = createAsyncNodeHost();

/**
 * The skill's docs (seed 004): Markdown and text files under its root, except SKILL.md itself,
 * sorted by path; skips dependency, VCS and run-workspace folders, hidden entries, and links out of the skill.
 */
export async function listDocFiles(rootDir: string, limit = 1000): Promise<{ path: string; size_bytes: number }[]> {
  const realRoot = await fs.promises.realpath(rootDir);
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
