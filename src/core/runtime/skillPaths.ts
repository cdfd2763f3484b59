import * as fs from 'node:fs';
import * as path from 'node:path';
import { ToolError } from '../tools/toolError';
import { isInside } from '../paths/isInside';
import { resolveInRoot, type PathRefusal } from '../paths/resolveInRoot';
import { compareStrings } from '../text/compareStrings';

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

const SKIP_DIRS = new Set(['node_modules', '.git', '.venv', 'venv', '__pycache__', 'out', 'work', 'inputs']);
const DOC_EXT = /\.(md|markdown|txt|mdx|rst)$/i;

/**
 * The skill's docs (seed 004): Markdown and text files under its root, except SKILL.md itself,
 * sorted by path; skips dependency, VCS and workspace folders, hidden entries, and links out of the skill.
 */
export async function listDocFiles(rootDir: string, limit = 1000): Promise<{ path: string; size_bytes: number }[]> {
  const realRoot = await fs.promises.realpath(rootDir);
  const found: { path: string; size_bytes: number }[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > 8 || found.length >= limit) return;
    const entries = await fs.promises.readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => compareStrings(a.name, b.name));
    for (const e of entries) {
      if (e.name.startsWith('.') || found.length >= limit) continue;
      const abs = path.join(dir, e.name);
      let isDir = e.isDirectory();
      let isFile = e.isFile();
      if (e.isSymbolicLink()) {
        const real = await fs.promises.realpath(abs).catch(() => undefined);
        if (!real || !isInside(realRoot, real)) continue;
        const st = await fs.promises.stat(real);
        isDir = st.isDirectory();
        isFile = st.isFile();
      }
      if (isDir) {
        if (!SKIP_DIRS.has(e.name)) await walk(abs, depth + 1);
      } else if (isFile && DOC_EXT.test(e.name)) {
        const rel = path.relative(realRoot, abs).split(path.sep).join('/');
        if (rel.toLowerCase() === 'skill.md') continue;
        found.push({ path: rel, size_bytes: (await fs.promises.stat(abs)).size });
      }
    }
  };
  await walk(realRoot, 0);
  return found;
}
