// Starts code-server (a real VS Code server + web workbench) on a free loopback port, in its own
// process group with its own HOME/XDG/user-data/extensions folders, and stops the whole group.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** A free TCP port on 127.0.0.1 (asked from the OS, then released). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (srv.address());
      srv.close(() => resolve(port));
    });
  });
}

/** User settings that keep a test VS Code quiet and deterministic. */
const TEST_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'update.mode': 'none',
  'chat.disableAIFeatures': false,
  'security.workspace.trust.enabled': false,
};

/**
 * The folders of one isolated VS Code profile under `root`.
 * @param {string} root
 */
export function profileDirs(root) {
  const d = {
    home: join(root, 'home'),
    config: join(root, 'xdg-config'),
    data: join(root, 'xdg-data'),
    cache: join(root, 'xdg-cache'),
    userData: join(root, 'user-data'),
    extensions: join(root, 'extensions'),
  };
  for (const p of Object.values(d)) mkdirSync(p, { recursive: true });
  mkdirSync(join(d.userData, 'User'), { recursive: true });
  return d;
}

/**
 * Starts code-server and resolves once /healthz answers.
 * `automation: false` leaves out VS Code's smoke-test driver, so the workbench is the one a user gets: the tests
 * need the driver (without it the workbench ignores the URL's payload), but with it VS Code shows no notification
 * pop-ups.
 * @param {{ node: string, codeServer: string, root: string, logFile: string, env?: NodeJS.ProcessEnv,
 *   settings?: Record<string, unknown>, keepSettings?: boolean, trust?: boolean, automation?: boolean, timeoutMs?: number, extraArgs?: string[], port?: number }} o
 * @returns {Promise<{ port: number, base: string, pid: number, dirs: ReturnType<typeof profileDirs>, exited: Promise<number | null>, stop: () => Promise<void> }>}
 */
export async function startCodeServer(o) {
  const dirs = profileDirs(o.root);
  const settingsFile = join(dirs.userData, 'User', 'settings.json');
  if (!(o.keepSettings && existsSync(settingsFile))) {
    writeFileSync(settingsFile, JSON.stringify({ ...TEST_SETTINGS, ...o.settings }, null, 2));
  }
  const port = o.port ?? (await freePort());
  const args = [
    o.codeServer,
    '--bind-addr', `127.0.0.1:${port}`,
    '--auth', 'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    ...(o.automation === false ? [] : ['--vscode-option', 'enable-smoke-test-driver']),
    '--user-data-dir', dirs.userData,
    '--extensions-dir', dirs.extensions,
    ...(o.trust === false ? [] : ['--disable-workspace-trust']),
    ...(o.extraArgs ?? []),
  ];
  const log = createWriteStream(o.logFile);
  const child = spawn(o.node, args, {
    detached: true, // its own process group, so stop() reaches every helper it forks
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      ...o.env,
      HOME: dirs.home,
      // Where this VS Code keeps its user data (suites write VS Code's own files there, e.g. its installed agent plugins).
      SKILLS_TEST_USER_DATA_DIR: dirs.userData,
      XDG_CONFIG_HOME: dirs.config,
      XDG_DATA_HOME: dirs.data,
      XDG_CACHE_HOME: dirs.cache,
      // The project's npm/node settings must not leak into VS Code's own Node 24.
      NODE_OPTIONS: '',
    },
  });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  const pid = /** @type {number} */ (child.pid);
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    const alive = () => {
      try {
        process.kill(-pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      // already gone
    }
    const deadline = Date.now() + 3000;
    while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    if (alive()) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // raced with its exit
      }
    }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))]);
    log.end();
  };
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (o.timeoutMs ?? 60_000);
  let exitedEarly = false;
  void exited.then(() => (exitedEarly = true));
  for (;;) {
    if (exitedEarly) {
      await stop();
      throw new Error(`code-server exited before answering on ${base}; its log: ${o.logFile}`);
    }
    try {
      const r = await fetch(`${base}/healthz`);
      if (r.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`code-server did not answer ${base}/healthz within ${o.timeoutMs ?? 60_000} ms; its log: ${o.logFile}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { port, base, pid, dirs, exited, stop };
}

/**
 * The workbench URL that opens `folder` with extensions under development and, optionally, an
 * extension test runner. Needs the server started with --vscode-option enable-smoke-test-driver.
 * @param {{ base: string, port: number, folder: string, extensionPaths: string[], testsPath?: string }} o
 */
export function workbenchUrl(o) {
  const remote = (p) => `vscode-remote://127.0.0.1:${o.port}${p}`;
  const payload = [
    ...o.extensionPaths.map((p) => ['extensionDevelopmentPath', remote(p)]),
    ...(o.testsPath ? [['extensionTestsPath', remote(o.testsPath)]] : []),
    ['skipWelcome', 'true'],
  ];
  return `${o.base}/?folder=${encodeURIComponent(o.folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}
