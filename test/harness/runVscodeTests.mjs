// `npm run test:vscode`: runs mocha suites inside a real VS Code (code-server + headless
// chromium), relays their output and exits with their result. Two sessions by default:
//   development  test/extension/suites/*.test.ts, the extension loaded from this folder;
//   packaged     test/extension/packaged/*.test.ts, the extension installed from `npm run package`'s .vsix.
// A teammate adds a suite by dropping a file into test/extension/suites/.
//
// Environment:
//   SKILLS_VSCODE_SUITES       comma-separated suite files: run only these, in one development session
//   SKILLS_VSCODE_PACKAGED=0   skip the packaged session
//   SKILLS_VSCODE_UNTRUSTED=0  skip the untrusted session (test/extension/untrusted/*.test.ts, workspace trust on, folder not trusted)
//   SKILLS_VSCODE_TRUST=0      run the SKILLS_VSCODE_SUITES selection in an untrusted workspace
//   SKILLS_VSCODE_GREP         only tests whose full title matches (mocha --grep)
//   SKILLS_VSCODE_DEADLINE_MS  stop everything and fail after this long (default 900000)
//   SKILLS_VSCODE_TEST_DEADLINE_MS  stop everything and fail when one test still runs this long after it
//                              started (counted from its own start, so a slow VS Code start-up does not count)
//   SKILLS_VSCODE_VERBOSE=1    also print the workbench's own log lines
//   SKILLS_VSCODE_KEEP=1       keep the run folder (logs, profiles) for a post-mortem
//   SKILLS_VSCODE_NO_BUILD=1   do not run scripts/build.mjs first (dist/ is already built)
//   SKILLS_VSCODE_RESULTS_DIR  where suites save screenshots (default test-results/ of the checkout)
//   MOCHA_STATS_FILE           write {passed, failed, skipped, tests} there (read by scripts/test.mjs)
import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureVscode } from '../../scripts/setup-vscode.mjs';
import { buildExtension, buildScriptedModel, buildTestBundles, suiteFiles } from './buildTests.mjs';
import { createRelay } from './relay.mjs';
import { runSession } from './session.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const deadlineMs = Number(process.env.SKILLS_VSCODE_DEADLINE_MS || 900_000);
const testDeadlineMs = Number(process.env.SKILLS_VSCODE_TEST_DEADLINE_MS || 0);
const verbose = process.env.SKILLS_VSCODE_VERBOSE === '1';
const keep = process.env.SKILLS_VSCODE_KEEP === '1';
const started = Date.now();
const say = (msg) => console.log(`[vscode-tests] ${msg}`);
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;

const totals = { passed: 0, failed: 0, skipped: 0, tests: [] };
const problems = [];
/** @type {ReturnType<typeof createRelay> | undefined} */
let currentRelay;
/** @type {(() => Promise<void>) | undefined} */
let stopCurrent;
let runDir = '';
let finishing = false;

/** Stops whatever runs, writes the counts, prints the closing line and exits. */
async function finish(code, problem) {
  if (finishing) return;
  finishing = true;
  clearTimeout(testTimer);
  if (problem) problems.push(problem);
  if (currentRelay) add(currentRelay.stats()); // a session cut short: count what it reported
  await stopCurrent?.();
  // A run that ended without every verdict counts one failure per problem.
  totals.failed += problems.length;
  if (process.env.MOCHA_STATS_FILE) writeFileSync(process.env.MOCHA_STATS_FILE, JSON.stringify(totals));
  if (runDir && !keep) rmSync(runDir, { recursive: true, force: true });
  for (const p of problems) say(`problem: ${p}`);
  say(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped in ${elapsed()}`);
  process.exit(code !== 0 || totals.failed > 0 ? 1 : 0);
}

function add(stats) {
  totals.passed += stats.passed;
  totals.failed += stats.failed;
  totals.skipped += stats.skipped;
  totals.tests.push(...(stats.tests ?? []));
}

/** The running test's own deadline (SKILLS_VSCODE_TEST_DEADLINE_MS), armed when it starts and cleared when it ends. */
let testTimer;
function timeTest(event) {
  clearTimeout(testTimer);
  if (event.state !== 'started' || !testDeadlineMs) return;
  testTimer = setTimeout(
    () => void finish(1, `deadline: the test "${event.title}" was still running ${testDeadlineMs} ms after it started; stopped code-server and chromium`),
    testDeadlineMs,
  );
}

for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(sig, () => void finish(130, `interrupted by ${sig}`));
const deadline = setTimeout(() => void finish(1, `deadline: no result after ${deadlineMs} ms; stopped code-server and chromium`), deadlineMs);

try {
  const paths = await ensureVscode();
  runDir = mkdtempSync(join(tmpdir(), 'skills-vscode-'));
  // The compiled suites live in the run folder, not in the checkout (which the unprivileged pass of npm test
  // may only read); a node_modules link beside them lets `require('mocha')` find the project's packages.
  const outDir = join(runDir, 'bundles');
  symlinkSync(join(root, 'node_modules'), join(runDir, 'node_modules'), 'dir');
  say(`run folder ${runDir}`);
  if (process.env.SKILLS_VSCODE_NO_BUILD === '1') say('SKILLS_VSCODE_NO_BUILD=1: using dist/ as it is');
  else buildExtension(root);
  const scriptedModelDir = await buildScriptedModel(root, join(runDir, 'scripted-model'));

  const custom = process.env.SKILLS_VSCODE_SUITES;
  const sessions = [{ name: custom ? 'selected' : 'development', suites: suiteFiles(root, custom), trust: !(custom && process.env.SKILLS_VSCODE_TRUST === '0') }];
  const untrustedDir = join(root, 'test', 'extension', 'untrusted');
  if (!custom && process.env.SKILLS_VSCODE_UNTRUSTED !== '0' && existsSync(untrustedDir)) {
    const suites = readdirSync(untrustedDir).filter((n) => n.endsWith('.test.ts')).sort().map((n) => join(untrustedDir, n));
    if (suites.length) sessions.push({ name: 'untrusted', suites, trust: false });
  }
  const packagedDir = join(root, 'test', 'extension', 'packaged');
  if (!custom && process.env.SKILLS_VSCODE_PACKAGED !== '0' && existsSync(packagedDir)) {
    const suites = readdirSync(packagedDir).filter((n) => n.endsWith('.test.ts')).sort().map((n) => join(packagedDir, n));
    if (suites.length) sessions.push({ name: 'packaged', suites, vsix: join(runDir, 'packaged.vsix') });
  }
  for (const s of sessions) for (const f of s.suites) if (!existsSync(f)) throw new Error(`suite ${f} does not exist (check SKILLS_VSCODE_SUITES)`);

  let code = 0;
  for (const s of sessions) {
    const testsIndex = await buildTestBundles(root, join(outDir, s.name), s.suites);
    if (s.vsix) {
      const r = spawnSync(process.execPath, [join(root, 'scripts', 'package.mjs'), '--out', s.vsix], { cwd: root, stdio: 'inherit' });
      if (r.status !== 0) throw new Error('scripts/package.mjs failed; see above');
    }
    say(`${s.name}: ${s.suites.length} suite(s), starting VS Code at ${elapsed()}`);
    currentRelay = createRelay({ verbose, print: (line) => console.log(line), onTest: timeTest });
    const result = await runSession({
      name: s.name,
      root,
      runDir,
      paths,
      testsIndex,
      scriptedModelDir,
      vsix: s.vsix,
      relay: currentRelay,
      say,
      register: (stop) => (stopCurrent = stop),
      trust: s.trust !== false,
      env: {
        SKILLS_VSCODE_GREP: process.env.SKILLS_VSCODE_GREP ?? '',
        SKILLS_VSCODE_TEST_TIMEOUT_MS: process.env.SKILLS_VSCODE_TEST_TIMEOUT_MS ?? '',
        SKILLS_VSCODE_RESULTS_DIR: process.env.SKILLS_VSCODE_RESULTS_DIR ?? '',
      },
    });
    if (finishing) break; // the deadline or a signal stopped this session; finish() reports it
    currentRelay = undefined;
    stopCurrent = undefined;
    add(result.stats);
    if (result.problem) problems.push(result.problem);
    if (result.code !== 0) code = 1;
    say(`${s.name}: ${result.stats.passed} passed, ${result.stats.failed} failed at ${elapsed()}`);
  }
  clearTimeout(deadline);
  await finish(code);
} catch (e) {
  clearTimeout(deadline);
  await finish(1, `error: ${e instanceof Error ? e.message : String(e)}`);
}
