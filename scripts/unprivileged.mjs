import { dirname } from 'node:path';
// The unprivileged pass of `npm test`: when the tests start as root (a container, CI), the suites that
// run scripts or write state run once more as a dedicated ordinary account, because root ignores
// permission bits and hid a defect every user had. This module makes that account and runs commands as it.
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, lstatSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** The account's name; override with SKILLS_TEST_USER (an existing ordinary account). */
export const TEST_USER = process.env.SKILLS_TEST_USER || 'agent-skills-test';

/** uid, gid and home of `name` from the account database, or undefined when there is no such account. */
function lookup(name) {
  const r = spawnSync('getent', ['passwd', name], { encoding: 'utf8' });
  if (r.status !== 0) return undefined;
  const [, , uid, gid, , home] = r.stdout.trim().split(':');
  return { name, uid: Number(uid), gid: Number(gid), home };
}

/** The first of `programs` that exists, or undefined. */
function findProgram(programs) {
  for (const p of programs) {
    for (const dir of ['/usr/sbin', '/usr/bin', '/sbin', '/bin']) {
      if (existsSync(join(dir, p))) return join(dir, p);
    }
  }
  return undefined;
}

/**
 * The test account, created (useradd, with its own home folder) when missing. Throws with what to do
 * when it cannot be had: then the unprivileged pass counts as failed, never as skipped.
 * @returns {{ name: string, uid: number, gid: number, home: string }}
 */
export function ensureTestAccount() {
  let account = lookup(TEST_USER);
  if (!account) {
    const useradd = findProgram(['useradd']);
    if (!useradd) throw new Error(`there is no account "${TEST_USER}" and no useradd to create it; create an ordinary account and set SKILLS_TEST_USER to its name`);
    const r = spawnSync(useradd, ['--create-home', '--user-group', '--shell', '/usr/sbin/nologin', '--comment', 'Agent Skills Runtime tests (unprivileged pass of npm test)', TEST_USER], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`useradd ${TEST_USER} failed (${r.status}): ${r.stderr.trim()}; create an ordinary account and set SKILLS_TEST_USER to its name`);
    account = lookup(TEST_USER);
    if (!account) throw new Error(`useradd ${TEST_USER} succeeded but getent does not list the account`);
    console.log(`[unprivileged] created the account ${TEST_USER} (uid ${account.uid})`);
  }
  if (account.uid === 0) throw new Error(`SKILLS_TEST_USER=${TEST_USER} is root (uid 0); give an ordinary account`);
  if (!account.home || account.home === '/' || !existsSync(account.home)) {
    throw new Error(`${TEST_USER}'s home folder "${account.home}" does not exist; give the account a home folder (usermod --home <dir> --move-home ${TEST_USER})`);
  }
  return account;
}

/** How commands run as `account`: runuser, or setpriv where runuser is missing. */
function dropPrivileges(account) {
  const runuser = findProgram(['runuser']);
  if (runuser) return [runuser, '-u', account.name, '--'];
  const setpriv = findProgram(['setpriv']);
  if (setpriv) return [setpriv, `--reuid=${account.uid}`, `--regid=${account.gid}`, '--init-groups', '--'];
  throw new Error('neither runuser nor setpriv is installed (package util-linux); they drop root privileges for the unprivileged pass');
}

/** A folder owned by the account (made, or emptied but for `keep`). */
function ownedFolder(account, dir, keep = () => false) {
  const st = lstatSync(dir, { throwIfNoEntry: false });
  if (st && (!st.isDirectory() || st.uid !== account.uid)) rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // As root: removes whatever the last pass left, read-only folders included.
  for (const name of readdirSync(dir)) if (!keep(name)) rmSync(join(dir, name), { recursive: true, force: true });
  chownSync(dir, account.uid, account.gid);
  return dir;
}

/**
 * The account's fresh HOME (no state from an earlier pass) and its TMPDIR (emptied, but tsx's per-user
 * compile cache `tsx-<uid>` is kept so the pass does not compile every test file again), both in its home,
 * under `name` (another use, such as a benchmark, takes another name and leaves npm test's folders alone).
 */
export function prepareAccountFolders(account, name = 'npm-test') {
  const base = join(account.home, name);
  mkdirSync(base, { recursive: true });
  chownSync(base, account.uid, account.gid);
  return {
    home: ownedFolder(account, join(base, 'home')),
    tmp: ownedFolder(account, join(base, 'tmp'), (name) => name.startsWith('tsx-')),
    stats: ownedFolder(account, join(base, 'stats')),
  };
}

/**
 * Paths the account must read (the checkout, dist/, node_modules, the VS Code cache): the first one it
 * cannot, with what to do, or undefined when it can read them all. Asked as the account itself.
 */
export function unreadableFor(account, paths) {
  const probe = `const fs=require('fs');for(const p of JSON.parse(process.argv[1])){try{fs.accessSync(p,fs.constants.R_OK|(fs.statSync(p).isDirectory()?fs.constants.X_OK:0))}catch(e){console.log(p);process.exit(1)}}`;
  const [drop, ...dropArgs] = dropPrivileges(account);
  const r = spawnSync(drop, [...dropArgs, process.execPath, '-e', probe, JSON.stringify(paths)], { encoding: 'utf8', cwd: '/' });
  if (r.status === 0) return undefined;
  const bad = r.stdout.trim() || r.stderr.trim();
  return `${TEST_USER} cannot read ${bad}: make the checkout and its .cache/vscode readable to other users (chmod -R o+rX <folder>, and o+x on each parent folder), or move the checkout out of a private folder such as /root`;
}

/**
 * As root, opens the way to `paths` for other users (o+x on each parent folder, o+rX on the paths), for a
 * checkout in a private temp folder (mktemp -d is 0700). Says what it changed; changes nothing when not root.
 */
export function openForOthers(paths) {
  if (process.getuid?.() !== 0) return false;
  for (const p of paths) {
    for (let d = dirname(p); d !== dirname(d); d = dirname(d)) spawnSync('chmod', ['o+x', d]);
    spawnSync('chmod', ['-R', 'o+rX', p]);
  }
  console.log(`[unprivileged] made ${paths.join(', ')} and their parent folders readable to other users for ${TEST_USER}`);
  return true;
}

/**
 * Runs `program args` as the account in `cwd`, with only `env` (plus PATH, LANG and TERM of this process)
 * as its environment: nothing of root's (HOME, npm's settings, caches) leaks into the unprivileged run.
 */
export function runAs(account, program, args, { cwd, env }) {
  const base = { PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin', LANG: process.env.LANG ?? 'C.UTF-8', TERM: process.env.TERM ?? 'dumb', USER: account.name, LOGNAME: account.name };
  const vars = Object.entries({ ...base, ...env }).map(([k, v]) => `${k}=${v}`);
  const [drop, ...dropArgs] = dropPrivileges(account);
  return spawnSync(drop, [...dropArgs, '/usr/bin/env', '-i', ...vars, program, ...args], { cwd, stdio: 'inherit' });
}

/** True when this process runs as root (on a platform with uids). */
export function runningAsRoot() {
  return process.getuid?.() === 0;
}
