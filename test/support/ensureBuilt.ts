import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '../..');

/** Set by scripts/test.mjs after its own build: the suites use dist/ as it is and never rebuild it. */
export const DIST_READY_ENV = 'SKILLS_TEST_DIST_READY';

/** What scripts/build.mjs writes; all must exist. */
const OUTPUTS = ['dist/cli.js', 'dist/cli-bundle.js', 'dist/server.js', 'dist/extension.js'];
/** What the bundles are built from: a newer file here makes dist/ stale. */
const SOURCES = ['src', 'server', 'scripts/build.mjs', 'package.json', 'package-lock.json'];

let checked: Promise<void> | undefined;

function newestMtime(p: string): number {
  let st: fs.Stats;
  try {
    st = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs; // a removed file shows only as its folder's mtime
  for (const name of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, name)));
  return newest;
}

/** Why dist/ must be built, or undefined when it is current. */
export function staleReason(repo = REPO): string | undefined {
  let oldest = Infinity;
  for (const out of OUTPUTS) {
    const st = fs.statSync(path.join(repo, out), { throwIfNoEntry: false });
    if (!st) return `${out} is missing`;
    oldest = Math.min(oldest, st.mtimeMs);
  }
  const newest = Math.max(...SOURCES.map((s) => newestMtime(path.join(repo, s))));
  return newest > oldest ? 'a source file is newer than dist/' : undefined;
}

/**
 * Makes sure dist/ (the CLI, the language server, the extension) is built, for suites that spawn it.
 * Under `npm test` (DIST_READY_ENV set) the build scripts/test.mjs made is used as it is; a lone
 * `npx mocha` builds once per process, and only when dist/ is missing or older than its sources.
 */
export function ensureBuilt(): Promise<void> {
  checked ??= (async () => {
    if (process.env[DIST_READY_ENV] === '1') {
      const missing = OUTPUTS.find((o) => !fs.existsSync(path.join(REPO, o)));
      if (missing) throw new Error(`${missing} is missing although ${DIST_READY_ENV}=1 says dist/ was built; run node scripts/build.mjs or unset ${DIST_READY_ENV}.`);
      return;
    }
    if (!staleReason()) return;
    const b = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: REPO, encoding: 'utf8' });
    if (b.status !== 0) throw new Error(`node scripts/build.mjs failed (${b.status ?? b.signal}):\n${b.stdout}${b.stderr}`);
  })();
  return checked;
}

/** Time a `before` hook gives the build (esbuild takes seconds, more on a loaded machine). */
export const BUILD_TIMEOUT_MS = 180_000;
