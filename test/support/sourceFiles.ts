// The project's own source files, for tests that scan the code (layering, import graph, file names, the path rule,
// tool names, assembly counts).
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The repository's root (this file is test/support/sourceFiles.ts). */
export const REPO = path.resolve(__dirname, '..', '..');

/** Script files of every kind the project writes. */
export const SCRIPT_FILE = /\.(ts|mts|cts|js|mjs|cjs)$/;

/** Import, dynamic import and require specifiers, in group 1. */
export const IMPORT_SPECIFIERS = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g;

/** Every file under `dir` (absolute, or relative to the repository) whose name matches `ext`, as absolute paths; type declarations (`.d.ts`) are left out. */
export function sourceFiles(dir: string, ext: RegExp = /\.ts$/): string[] {
  return fs.readdirSync(path.resolve(REPO, dir), { withFileTypes: true }).flatMap((e) => {
    const p = path.join(path.resolve(REPO, dir), e.name);
    return e.isDirectory() ? sourceFiles(p, ext) : ext.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/**
 * The code of a source file without its comments, for scans that must not count what a comment says (strings are
 * kept: import specifiers live there). Whole-line `//` comments go first: one may hold a `/*` ("skills/*") that
 * opens no block comment, and taking it for one would drop the code up to the next `*\/`.
 */
export function withoutComments(code: string): string {
  return code
    .replace(/^[ \t]*\/\/.*$/gm, '')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`\\])\/\/[^\n]*/g, '$1');
}
