// `npm start`, the README's main job: builds the extension and opens it in a real VS Code on the
// sample workspace of skills (test/fixtures/sample-workspace, copied to .cache/ so your edits
// survive restarts and the fixture stays clean).
// It opens on the Skills view.
//   - with a `code` command on PATH: `code --extensionDevelopmentPath=<this folder> <workspace>`;
//   - otherwise: the code-server that scripts/setup-vscode.mjs installs into .cache/, on 127.0.0.1, as a user
//     gets it: the extension packed (scripts/package.mjs) and installed from its .vsix with code-server's own
//     --install-extension, workspace trust on (the sample opens in Restricted Mode until you trust it), and
//     without the smoke-test driver the tests use (with it VS Code shows no notification pop-ups: no progress
//     with its Cancel button, no error message). It prints the URL to open. Ctrl-C stops it.
// Options: --fresh (recopy the sample workspace), --port N (default: a free port; or $PORT),
//          --code-server (use code-server even when `code` exists),
//          --profile DIR (code-server's settings/extensions folder; default .cache/vscode/user-profile).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureVscode } from './setup-vscode.mjs';
import { profileDirs, startCodeServer } from '../test/harness/codeServer.mjs';
import { installVsix } from '../test/harness/session.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const say = (msg) => console.log(`[start] ${msg}`);
const portArg = args.indexOf('--port');
const port = portArg >= 0 ? Number(args[portArg + 1]) : process.env.PORT ? Number(process.env.PORT) : undefined;

const workspace = join(root, '.cache', 'sample-workspace');
if (args.includes('--fresh')) rmSync(workspace, { recursive: true, force: true });
if (!existsSync(workspace)) {
  cpSync(join(root, 'test', 'fixtures', 'sample-workspace'), workspace, { recursive: true });
  say(`copied the sample workspace to ${workspace}`);
}

// The extension shows its Skills view when it sees this (src/extension/ids.ts START_VIEW_ENV), so the
// sample opens where its skills can be tried: Run Script… on a skill, Preview Prompt in the view's title.
const startEnv = { AGENT_SKILLS_START_VIEW: 'skills' };

const code = spawnSync('sh', ['-c', 'command -v code'], { encoding: 'utf8' }).stdout.trim();
if (code && !args.includes('--code-server')) {
  say('building the extension (scripts/build.mjs)');
  if (spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' }).status !== 0) {
    console.error('[start] the build failed; fix the errors above and run `npm start` again');
    process.exit(1);
  }
  say(`opening VS Code: ${code} --extensionDevelopmentPath=${root} ${workspace}`);
  const r = spawnSync(code, [`--extensionDevelopmentPath=${root}`, workspace], { stdio: 'inherit', env: { ...process.env, ...startEnv } });
  process.exit(r.status ?? 1);
}

say('no `code` command found: using code-server (VS Code in the browser), installing it first if needed');
const paths = await ensureVscode();
const profileArg = args.indexOf('--profile');
const profile = profileArg >= 0 ? resolve(args[profileArg + 1]) : join(root, '.cache', 'vscode', 'user-profile');
mkdirSync(profile, { recursive: true });

// Installed as a user installs it: from the .vsix, with code-server's own command (replacing an earlier install).
const vsix = join(profile, 'agent-skills-runtime.vsix');
say('packing the extension (scripts/package.mjs)');
if (spawnSync(process.execPath, [join(root, 'scripts', 'package.mjs'), '--out', vsix], { cwd: root, stdio: 'inherit' }).status !== 0) {
  console.error('[start] packing the extension failed; fix the errors above and run `npm start` again');
  process.exit(1);
}
const installed = installVsix(paths, vsix, profileDirs(profile), ['--force']);
say(`installed ${vsix}; code-server lists: ${installed.join(', ')}`);

const server = await startCodeServer({
  node: paths.node,
  codeServer: paths.codeServer,
  root: profile,
  logFile: join(profile, 'code-server.log'),
  port,
  keepSettings: true, // your settings from earlier starts stay
  settings: { 'security.workspace.trust.enabled': true, 'workbench.startupEditor': 'none' },
  trust: false, // workspace trust as VS Code has it: the folder is trusted when you say so
  automation: false,
  env: startEnv,
});
const url = `${server.base}/?folder=${encodeURIComponent(workspace)}`;
say(`code-server is running, process group ${server.pid} (log: ${join(profile, 'code-server.log')})`);
say('open this URL in a browser on this machine (Ctrl-C here stops VS Code):');
console.log(`\n  ${url}\n`);

let stopping = false;
const stop = async (why) => {
  if (stopping) return;
  stopping = true;
  say(`stopping (${why})`);
  await server.stop();
  process.exit(0);
};
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(sig, () => void stop(sig));
void server.exited.then((c) => {
  if (!stopping) {
    console.error(`[start] code-server exited (${c}); see ${join(profile, 'code-server.log')}`);
    process.exit(1);
  }
});
// Keeps the process (and so code-server) alive until a signal arrives.
setInterval(() => {}, 1 << 30);
