// The README's test command: build, type-check, run every suite (core, CLI, language server,
// real VS Code), then print one closing line `N passed, N failed` over all of them.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const statsDir = mkdtempSync(join(tmpdir(), 'skills-test-stats-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
const problems = [];

function step(name, cmd, args, env = {}) {
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) problems.push(`${name} exited with ${r.status ?? r.signal}`);
  return r.status === 0;
}

function suite(name, cmd, args) {
  const statsFile = join(statsDir, `${name}.json`);
  step(name, cmd, args, { MOCHA_STATS_FILE: statsFile });
  if (!existsSync(statsFile)) {
    problems.push(`${name} reported no results`);
    totals.failed += 1;
    return;
  }
  const s = JSON.parse(readFileSync(statsFile, 'utf8'));
  totals.passed += s.passed;
  totals.failed += s.failed;
  totals.skipped += s.skipped;
}

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
if (step('build', 'node', ['scripts/build.mjs'])) {
  step('typecheck', npx, ['tsc', '--noEmit', '-p', '.']);
  // Installs (once) the real VS Code, chromium and bubblewrap before any suite, so the script
  // sandbox tests in the unit suite run on a fresh machine too instead of skipping.
  if (process.env.SKIP_VSCODE_TESTS !== '1') step('setup', 'node', ['scripts/setup-vscode.mjs']);
  suite('unit', npx, ['mocha']);
  if (process.env.SKIP_VSCODE_TESTS === '1') {
    console.log('\nreal VS Code suites not run: SKIP_VSCODE_TESTS=1 is set');
  } else if (existsSync('test/harness/runVscodeTests.mjs')) {
    suite('vscode', 'node', ['test/harness/runVscodeTests.mjs']);
  }
}
rmSync(statsDir, { recursive: true, force: true });
for (const p of problems) console.log(`problem: ${p}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(problems.length || totals.failed ? 1 : 0);
