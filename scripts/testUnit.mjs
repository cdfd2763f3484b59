// `npm run test:unit`: the quick unit run for the edit-test loop. Every mocha suite (core, CLI, language
// server, build checks), with the two longest sampling tests on a smaller sample (test/support/testSize.ts)
// and without the few that start a real VS Code (they say so; SKIP_VSCODE_TESTS=0 keeps them), in three
// mocha worker processes (see below; SKILLS_TEST_JOBS=1 runs them one after another).
// dist/ is built once first, so the workers never build it at the same time. `npm test` runs everything
// at full size, one suite at a time. Arguments go to mocha (e.g. a spec file, --grep).
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(import.meta.url), '..', '..');
const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) {
  console.error('test:unit: scripts/build.mjs failed; fix the build errors above first');
  process.exit(1);
}
// Three workers on two cores: much of the suite waits on child processes (CLI, language server, scripts), and a
// third worker fills that time (measured: 57 s with two, 44-46 s with three). SKILLS_TEST_JOBS=1 runs one file at a time.
const jobs = Number(process.env.SKILLS_TEST_JOBS || 3);
const parallel = jobs > 1 ? ['--parallel', '--jobs', String(jobs)] : [];
const r = spawnSync(process.execPath, [join(root, 'node_modules', 'mocha', 'bin', 'mocha.js'), ...parallel, ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { SKIP_VSCODE_TESTS: '1', ...process.env, SKILLS_TEST_QUICK: '1', SKILLS_TEST_DIST_READY: '1' },
});
process.exit(r.status ?? 1);
