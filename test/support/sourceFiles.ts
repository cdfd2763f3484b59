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
 * The code of a source file without its comments, for scans that must not count what a comment says. Strings are
 * kept whole (import specifiers live there, and a string such as 'out/**' or 'skill://x' holds comment markers that
 * open no comment): a regular-expression approach took `/*` in a string or a `//` comment for a block comment and
 * dropped the code up to the next `*\/`. A marker right after a backslash (an escaped slash of a regex literal) is
 * no comment either. Where it misreads a regex literal holding a quote, it keeps more than it should, never less.
 */
export function withoutComments(code: string): string {
  let out = '';
  let quote: string | undefined;
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    if (quote) {
      out += c;
      if (c === '\\') out += code[++i] ?? '';
      else if (c === quote || (c === '\n' && quote !== '`')) quote = undefined;
      continue;
    }
    if (c === '/' && code[i - 1] !== '\\' && (code[i + 1] === '/' || code[i + 1] === '*')) {
      const end = code[i + 1] === '/' ? code.indexOf('\n', i) : code.indexOf('*/', i + 2);
      i = end < 0 ? code.length : code[i + 1] === '/' ? end - 1 : end + 1;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') quote = c;
    out += c;
  }
  return out;
}
