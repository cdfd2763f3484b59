// `npm run test:unit`: the quick unit run for the edit-test loop. Every mocha suite (core, CLI, language
// server, build checks), with the two longest sampling tests on a smaller sample (test/support/testSize.ts)
// and without the few that start a real VS Code (they say so; SKIP_VSCODE_TESTS=0 keeps them). `npm test`
// runs everything at full size. Arguments go to mocha (e.g. a spec file, --grep).
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(import.meta.url), '..', '..');
const r = spawnSync(process.execPath, [join(root, 'node_modules', 'mocha', 'bin', 'mocha.js'), ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { SKIP_VSCODE_TESTS: '1', ...process.env, SKILLS_TEST_QUICK: '1' },
});
process.exit(r.status ?? 1);
