// The README's test command: build once, type-check, run every suite (core, CLI, language server, real
// VS Code), then print each pass with how many tests ran in it, how many distinct tests ran, and one closing
// line `N passed, N failed[, N skipped]` over the distinct tests (scripts/testSummary.mjs).
// Started as root, it also runs the suites that run scripts or write state (core exec and runtime, the CLI,
// the real VS Code sessions) as an ordinary account (scripts/unprivileged.mjs): root ignores permission
// bits, and a green run as root alone once hid that no other user could run a script.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDir } from './setup-vscode.mjs';
import { summarize } from './testSummary.mjs';
import { conformanceDir } from './setup-conformance.mjs';
import { ensureTestAccount, prepareAccountFolders, runAs, runningAsRoot, TEST_USER, unreadableFor, openForOthers } from './unprivileged.mjs';

const root = resolve(fileURLToPath(import.meta.url), '..', '..');
const statsDir = mkdtempSync(join(tmpdir(), 'skills-test-stats-'));
/** Every suite run: what, as whom, its counts. */
const runs = [];
const problems = [];
const whoami = runningAsRoot() ? 'root' : `uid ${process.getuid?.() ?? '?'}`;
/**
 * The suites the unprivileged pass runs: everything that runs scripts or writes state (sessions and the audit log,
 * the edit engine's revisions, overlays, locks and archive, the catalog's writes, the host's writes, the packs'
 * downloads and extraction into the cache: issue 22.8 wants the pack repros, a trickle, a redirect, bombs, as an
 * ordinary user too).
 */
const UNPRIVILEGED_SPECS = [
  'test/core/exec/**/*.test.ts',
  'test/core/runtime/**/*.test.ts',
  'test/core/edit/**/*.test.ts',
  'test/core/catalog/**/*.test.ts',
  'test/core/audit/**/*.test.ts',
  'test/core/host/**/*.test.ts',
  'test/core/packs/**/*.test.ts',
  'test/core/coreInMemory.test.ts',
  'test/cli/**/*.test.ts',
];
/** Tells the mocha suites that dist/ is built (test/support/ensureBuilt.ts): they never build it again. */
const DIST_READY = { SKILLS_TEST_DIST_READY: '1' };
const vscodeWanted = process.env.SKIP_VSCODE_TESTS !== '1';

function step(name, cmd, args, env = {}) {
  console.log(`\n=== ${name} (as ${whoami}): ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) problems.push(`${name} exited with ${r.status ?? r.signal}`);
  return r.status === 0;
}

/** Adds a suite's counts from its stats file; a suite that wrote none counts as one failure. */
function record(name, user, statsFile, status) {
  if (!existsSync(statsFile)) {
    problems.push(`${name} (as ${user}) reported no results`);
    runs.push({ name, user, passed: 0, failed: 1, skipped: 0 });
    return;
  }
  const s = JSON.parse(readFileSync(statsFile, 'utf8'));
  // mocha exits with its failure count; a non-zero exit with no failed test is a problem of its own.
  if (status !== 0 && !s.failed) problems.push(`${name} (as ${user}) exited with ${status} although no test failed`);
  runs.push({ name, user, passed: s.passed, failed: s.failed, skipped: s.skipped, tests: s.tests });
}

function suite(name, cmd, args, env = {}) {
  const statsFile = join(statsDir, `${name}.json`);
  console.log(`\n=== ${name} (as ${whoami}): ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env, MOCHA_STATS_FILE: statsFile } });
  record(name, whoami, statsFile, r.status);
}

/** The unprivileged pass (as root only). Anything that keeps it from running is a failure, never a skip. */
function unprivilegedPass() {
  const fail = (why) => {
    problems.push(`unprivileged pass not run: ${why}`);
    runs.push({ name: 'unprivileged pass', user: TEST_USER, passed: 0, failed: 1, skipped: 0 });
  };
  let account;
  try {
    account = ensureTestAccount();
  } catch (e) {
    return fail(e instanceof Error ? e.message : String(e));
  }
  const user = `${account.name} (uid ${account.uid})`;
  const needed = [root, join(root, 'dist', 'cli.js'), join(root, 'node_modules', 'mocha', 'bin', 'mocha.js'), join(root, 'node_modules', 'tsx')];
  if (vscodeWanted) needed.push(cacheDir);
  // The MCP conformance suite root installed (test/cli/mcpConformance.test.ts runs it in this pass too).
  needed.push(conformanceDir);
  let unreadable = unreadableFor(account, needed);
  // A checkout in a private folder (a clean clone in mktemp -d): open the way as root, then ask again.
  if (unreadable && openForOthers(needed)) unreadable = unreadableFor(account, needed);
  if (unreadable) return fail(unreadable);
  const dirs = prepareAccountFolders(account);
  // Only what the suites need: none of root's environment (npm settings, caches, HOME) reaches them.
  const passThrough = Object.fromEntries(Object.entries(process.env).filter(([k]) => /^SKILLS_VSCODE_/.test(k)));
  const env = { HOME: dirs.home, TMPDIR: dirs.tmp, ...DIST_READY };
  const asAccount = (name, args, extra = {}) => {
    const statsFile = join(dirs.stats, `${name}.json`);
    rmSync(statsFile, { force: true });
    console.log(`\n=== ${name} (as ${user}, HOME ${dirs.home}): node ${args.join(' ')}`);
    const r = runAs(account, process.execPath, args, { cwd: root, env: { ...env, ...extra, MOCHA_STATS_FILE: statsFile } });
    record(name, user, statsFile, r.status);
  };
  asAccount('unit, unprivileged', [join('node_modules', 'mocha', 'bin', 'mocha.js'), ...UNPRIVILEGED_SPECS]);
  if (!vscodeWanted) {
    console.log('\nreal VS Code suites not run as the unprivileged account either: SKIP_VSCODE_TESTS=1 is set');
    return;
  }
  // The packaged session builds the .vsix, which rewrites dist/; the account may only read the checkout.
  console.log('\nunprivileged VS Code: the development and untrusted sessions; the packaged session (it rebuilds dist/ into a .vsix) runs as root only');
  asAccount('vscode, unprivileged', [join('test', 'harness', 'runVscodeTests.mjs')], {
    ...passThrough,
    SKILLS_VSCODE_CACHE: cacheDir,
    SKILLS_VSCODE_NO_BUILD: '1',
    SKILLS_VSCODE_PACKAGED: '0',
    // Screenshots of this pass stay with the account; root's pass writes test-results/ of the checkout.
    SKILLS_VSCODE_RESULTS_DIR: join(dirs.tmp, 'test-results'),
  });
}

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
if (step('build', 'node', ['scripts/build.mjs'])) {
  step('typecheck', npx, ['tsc', '--noEmit', '-p', '.']);
  // Installs (once) the real VS Code, chromium and bubblewrap before any suite, so the script
  // sandbox tests in the unit suite run on a fresh machine too instead of skipping.
  if (vscodeWanted) step('setup', 'node', ['scripts/setup-vscode.mjs']);
  // The official MCP conformance suite, once, into .cache/conformance (it runs with the Node 24 installed above).
  step('setup conformance', 'node', ['scripts/setup-conformance.mjs']);
  // Debian's redis-server, once (as root it installs it): the replica tests start their own on loopback.
  step('setup redis', 'node', ['scripts/setup-redis.mjs']);
  suite('unit', npx, ['mocha'], DIST_READY);
  if (!vscodeWanted) console.log('\nreal VS Code suites not run: SKIP_VSCODE_TESTS=1 is set');
  else suite('vscode', 'node', ['test/harness/runVscodeTests.mjs'], { SKILLS_VSCODE_NO_BUILD: '1' });
  if (runningAsRoot()) unprivilegedPass();
  else console.log(`\nno unprivileged pass: the tests already ran as ${whoami}, an ordinary user`);
}
rmSync(statsDir, { recursive: true, force: true });

for (const p of problems) console.log(`problem: ${p}`);
// Each pass and what ran in it, the distinct tests, and last the line CI reads (over distinct tests).
const summary = summarize(runs);
for (const line of summary.lines) console.log(line);
process.exit(problems.length || summary.distinct.failed ? 1 : 0);
