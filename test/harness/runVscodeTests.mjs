// `npm run test:vscode`: runs the mocha suites of test/extension/suites/ inside a real VS Code
// (code-server + headless chromium), relays their output and exits with their result.
//
// Environment:
//   SKILLS_VSCODE_SUITES       comma-separated suite files to run instead of test/extension/suites/*.test.ts
//   SKILLS_VSCODE_GREP         only tests whose full title matches (mocha --grep)
//   SKILLS_VSCODE_DEADLINE_MS  stop everything and fail after this long (default 600000)
//   SKILLS_VSCODE_VERBOSE=1    also print the workbench's own log lines
//   MOCHA_STATS_FILE           write {passed, failed, skipped} there (read by scripts/test.mjs)
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureVscode } from '../../scripts/setup-vscode.mjs';
import { openWorkbench } from './browser.mjs';
import { buildExtension, buildScriptedModel, buildTestBundles, installUnpacked, suiteFiles } from './buildTests.mjs';
import { startCodeServer, workbenchUrl } from './codeServer.mjs';
import { createRelay } from './relay.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const deadlineMs = Number(process.env.SKILLS_VSCODE_DEADLINE_MS ?? 600_000);
const verbose = process.env.SKILLS_VSCODE_VERBOSE === '1';
const started = Date.now();
const say = (msg) => console.log(`[vscode-tests] ${msg}`);
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;

const paths = await ensureVscode();
const runDir = mkdtempSync(join(tmpdir(), 'skills-vscode-'));
const outDir = join(root, 'out', 'vscode-tests', `run-${process.pid}-${Date.now()}`);
const relay = createRelay({ verbose, print: (line) => console.log(line) });
/** @type {Awaited<ReturnType<typeof startCodeServer>> | undefined} */
let server;
/** @type {Awaited<ReturnType<typeof openWorkbench>> | undefined} */
let workbench;
let cleaned = false;

async function cleanup() {
  if (cleaned) return;
  cleaned = true;
  await workbench?.close();
  await server?.stop();
  rmSync(outDir, { recursive: true, force: true });
  if (process.env.SKILLS_VSCODE_KEEP !== '1') rmSync(runDir, { recursive: true, force: true });
}

function writeStats(stats) {
  const file = process.env.MOCHA_STATS_FILE;
  if (file) writeFileSync(file, JSON.stringify(stats));
}

async function finish(code, reason) {
  const stats = relay.stats();
  if (reason) {
    say(reason);
    // A run that ended without mocha's verdict counts as one failure beyond what it reported.
    stats.failed += 1;
  }
  writeStats(stats);
  await cleanup();
  say(`${stats.passed} passed, ${stats.failed} failed, ${stats.skipped} skipped in ${elapsed()}`);
  process.exit(code);
}

for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(sig, () => void finish(130, `interrupted by ${sig}`));
}
const deadline = setTimeout(() => void finish(1, `deadline: no result after ${deadlineMs} ms; stopped code-server (process group ${server?.pid ?? 'not started'}) and chromium`), deadlineMs);

try {
  say(`run folder ${runDir}`);
  buildExtension(root);
  const scriptedModelDir = await buildScriptedModel(root);
  const suites = suiteFiles(root, process.env.SKILLS_VSCODE_SUITES);
  for (const s of suites) if (!existsSync(s)) throw new Error(`suite ${s} does not exist (SKILLS_VSCODE_SUITES?)`);
  const testsIndex = await buildTestBundles(root, outDir, suites);
  say(`built extension, scripted model and ${suites.length} suite(s) in ${elapsed()}`);

  const workspace = join(runDir, 'workspace');
  cpSync(join(root, 'test', 'fixtures', 'sample-workspace'), workspace, { recursive: true });
  mkdirSync(join(runDir, 'vscode'), { recursive: true });
  // The workbench honours only one extensionDevelopmentPath from the payload, so the scripted
  // model goes in as an installed extension of this run's fresh extensions folder.
  installUnpacked(scriptedModelDir, join(runDir, 'vscode', 'extensions'));
  server = await startCodeServer({
    node: paths.node,
    codeServer: paths.codeServer,
    root: join(runDir, 'vscode'),
    logFile: join(runDir, 'code-server.log'),
    env: {
      SKILLS_VSCODE_GREP: process.env.SKILLS_VSCODE_GREP ?? '',
      SKILLS_VSCODE_TEST_TIMEOUT_MS: process.env.SKILLS_VSCODE_TEST_TIMEOUT_MS ?? '',
    },
  });
  say(`code-server ${server.base} up (process group ${server.pid}) at ${elapsed()}`);
  const url = workbenchUrl({ base: server.base, port: server.port, folder: workspace, extensionPaths: [root], testsPath: testsIndex });
  workbench = await openWorkbench({ executablePath: paths.chromium, url, profileRoot: runDir, onLog: relay.onLog });
  const code = await Promise.race([
    workbench.exitCode,
    server.exited.then((c) => {
      throw new Error(`code-server exited (${c}) before the tests finished; its log is ${join(runDir, 'code-server.log')}`);
    }),
  ]);
  clearTimeout(deadline);
  const missing = relay.sawStats() ? undefined : 'the extension host ended without mocha results (did test/extension/index.ts load? rerun with SKILLS_VSCODE_VERBOSE=1)';
  if (missing && process.env.SKILLS_VSCODE_KEEP !== '1') {
    console.log(readFileSync(join(runDir, 'code-server.log'), 'utf8').split('\n').slice(-40).join('\n'));
  }
  await finish(code === 0 && !missing ? 0 : 1, missing);
} catch (e) {
  clearTimeout(deadline);
  await finish(1, `error: ${e instanceof Error ? e.message : String(e)}`);
}
