// One real VS Code session: a fresh code-server + chromium that runs a set of compiled suites
// inside the extension host, with our extension either under development (the project folder)
// or installed from a .vsix as a user would.
import { cpSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { openWorkbench } from './browser.mjs';
import { installUnpacked } from './buildTests.mjs';
import { profileDirs, startCodeServer, workbenchUrl } from './codeServer.mjs';

/**
 * @typedef {{ passed: number, failed: number, skipped: number }} Stats
 * @typedef {{ code: number, stats: Stats, problem?: string }} SessionResult
 */

/**
 * Installs a .vsix into an extensions folder with code-server's own CLI, as a user would.
 * @param {{ node: string, codeServer: string }} paths
 * @param {string} vsix
 * @param {{ extensions: string, userData: string, home: string, config: string, data: string, cache: string }} dirs
 * @param {string[]} [extraArgs] e.g. `--force` to replace an installed version
 */
export function installVsix(paths, vsix, dirs, extraArgs = []) {
  const env = { ...process.env, HOME: dirs.home, XDG_CONFIG_HOME: dirs.config, XDG_DATA_HOME: dirs.data, XDG_CACHE_HOME: dirs.cache, NODE_OPTIONS: '' };
  const common = ['--extensions-dir', dirs.extensions, '--user-data-dir', dirs.userData];
  const r = spawnSync(paths.node, [paths.codeServer, '--install-extension', vsix, ...extraArgs, ...common], { env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`code-server --install-extension ${vsix} failed (${r.status}):\n${r.stdout}${r.stderr}`);
  const list = spawnSync(paths.node, [paths.codeServer, '--list-extensions', '--show-versions', ...common], { env, encoding: 'utf8' });
  return list.stdout.split('\n').map((l) => l.trim()).filter((l) => /^[\w-]+\.[\w-]+@/.test(l));
}

/** Settings of a session without workspace trust: Restricted Mode, no modal prompt at start. */
export const UNTRUSTED_SETTINGS = {
  'security.workspace.trust.enabled': true,
  'security.workspace.trust.startupPrompt': 'never',
  'security.workspace.trust.banner': 'never',
  'security.workspace.trust.untrustedFiles': 'open',
};

/** Before a line a suite prints to ask for a PNG of the workbench: `{ "path": "<abs file>" }` (test/extension/helpers/skillsUi.ts). */
const SCREENSHOT_MARKER = '@@skills-screenshot ';
/** Before a line a suite prints to ask what the workbench shows, or to click it (test/extension/helpers/workbenchDom.ts). */
const DOM_MARKER = '@@skills-dom ';

/**
 * Answers one DOM request of a suite: waits (up to `timeoutMs`) for the first visible element that matches
 * `selector` (and holds `hasText`), then reads or clicks it, and writes the answer to `path` (temp + rename,
 * so the suite never reads half a file). A request that finds nothing answers `{ error }`.
 * @param {import('playwright-core').Page} page
 * @param {{ path: string, selector: string, hasText?: string, action: 'read' | 'click' | 'count', timeoutMs?: number }} req
 */
async function answerDom(page, req) {
  let answer;
  try {
    const all = page.locator(req.selector);
    const matching = req.hasText ? all.filter({ hasText: req.hasText }) : all;
    if (req.action === 'count') {
      answer = { count: await matching.evaluateAll((els) => els.filter((e) => e.getClientRects().length > 0).length) };
    } else {
      const el = matching.first();
      await el.waitFor({ state: 'visible', timeout: req.timeoutMs ?? 20_000 });
      if (req.action === 'click') {
        await el.click();
        answer = { clicked: true };
      } else {
        answer = await el.evaluate((e) => {
          // Clipped: an element inside it (or itself) whose text does not fit its box (cut or ellipsised).
          const clipped = [e, ...e.querySelectorAll('*')].filter((x) => x.scrollWidth > x.clientWidth + 1 || x.scrollHeight > x.clientHeight + 1).filter((x) => getComputedStyle(x).overflow !== 'visible' && (x.textContent ?? '').trim()).map((x) => (x.textContent ?? '').trim().slice(0, 200));
          return {
            text: /** @type {HTMLElement} */ (e).innerText,
            inputs: [...e.querySelectorAll('input, textarea')].map((i) => ({ value: /** @type {HTMLInputElement} */ (i).value, placeholder: /** @type {HTMLInputElement} */ (i).placeholder })),
            buttons: [...e.querySelectorAll('a.monaco-button, .monaco-button, a[role=button], button')].map((b) => /** @type {HTMLElement} */ (b).innerText.trim()).filter(Boolean),
            clipped,
          };
        });
      }
    }
  } catch (e) {
    answer = { error: e instanceof Error ? e.message.split('\n')[0] : String(e) };
  }
  writeFileSync(`${req.path}.tmp`, JSON.stringify(answer));
  renameSync(`${req.path}.tmp`, req.path);
}

/**
 * Runs one session. `trust: false` starts code-server without --disable-workspace-trust, so the
 * workspace opens untrusted (Restricted Mode). `register(stop)` lets the caller stop it early (deadline, signal).
 * @param {{ name: string, root: string, runDir: string, paths: { node: string, codeServer: string, chromium: string },
 *   testsIndex: string, scriptedModelDir: string, vsix?: string, relay: ReturnType<typeof import('./relay.mjs').createRelay>,
 *   say: (msg: string) => void, register: (stop: () => Promise<void>) => void, env?: Record<string, string>, trust?: boolean }} o
 * @returns {Promise<SessionResult>}
 */
export async function runSession(o) {
  const dir = join(o.runDir, o.name);
  mkdirSync(dir, { recursive: true });
  const workspace = join(dir, 'workspace');
  cpSync(join(o.root, 'test', 'fixtures', 'sample-workspace'), workspace, { recursive: true });
  const relay = o.relay;
  const logFile = join(dir, 'code-server.log');
  /** @type {Awaited<ReturnType<typeof startCodeServer>> | undefined} */
  let server;
  /** @type {Awaited<ReturnType<typeof openWorkbench>> | undefined} */
  let workbench;
  const stop = async () => {
    await workbench?.close();
    await server?.stop();
  };
  o.register(stop);
  try {
    const vscodeRoot = join(dir, 'vscode');
    mkdirSync(join(vscodeRoot, 'extensions'), { recursive: true });
    let devPath = o.root;
    if (o.vsix) {
      // Ours comes from the .vsix; the scripted model is then the one extension under development.
      const listed = installVsix(o.paths, o.vsix, profileDirs(vscodeRoot));
      o.say(`${o.name}: installed ${o.vsix}; code-server lists: ${listed.join(', ')}`);
      devPath = o.scriptedModelDir;
    } else {
      // The workbench honours only one extensionDevelopmentPath from the payload, so the scripted
      // model goes in as an installed extension of this session's fresh extensions folder.
      installUnpacked(o.scriptedModelDir, join(vscodeRoot, 'extensions'));
    }
    const untrusted = o.trust === false;
    server = await startCodeServer({ node: o.paths.node, codeServer: o.paths.codeServer, root: vscodeRoot, logFile, env: o.env, trust: !untrusted, settings: untrusted ? UNTRUSTED_SETTINGS : undefined });
    o.say(`${o.name}: code-server ${server.base} up (process group ${server.pid})`);
    const url = workbenchUrl({ base: server.base, port: server.port, folder: workspace, extensionPaths: [devPath], testsPath: o.testsIndex });
    // Screenshot requests from the suites: the harness owns the page, so it takes them.
    const onLog = (level, args) => {
      relay.onLog(level, args);
      const text = Array.isArray(args) ? args.map(String).join(' ') : String(args);
      const dom = text.indexOf(DOM_MARKER);
      if (dom >= 0 && workbench) void answerDom(workbench.page, JSON.parse(text.slice(dom + DOM_MARKER.length).split('\n')[0]));
      const at = text.indexOf(SCREENSHOT_MARKER);
      if (at < 0 || !workbench) return;
      const { path, waitForText } = JSON.parse(text.slice(at + SCREENSHOT_MARKER.length).split('\n')[0]);
      const page = workbench.page;
      // Optionally wait until the page shows a text (a rendered tree item, a streamed answer), then shoot.
      const ready = waitForText ? page.getByText(waitForText).first().waitFor({ state: 'visible', timeout: 20_000 }) : Promise.resolve();
      void ready
        .then(() => page.screenshot({ path }))
        .catch((e) => o.say(`${o.name}: screenshot ${path} failed: ${e.message}`));
    };
    workbench = await openWorkbench({ executablePath: o.paths.chromium, url, profileRoot: dir, onLog });
    const serverGone = server.exited.then((c) => {
      throw new Error(`code-server exited (${c}) before the tests finished; its log is ${logFile}`);
    });
    const code = await Promise.race([workbench.exitCode, serverGone]);
    if (!relay.sawStats()) {
      console.log(readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n'));
      return { code: 1, stats: relay.stats(), problem: `${o.name}: the extension host ended without mocha results (rerun with SKILLS_VSCODE_VERBOSE=1)` };
    }
    return { code: code === 0 ? 0 : 1, stats: relay.stats() };
  } catch (e) {
    return { code: 1, stats: relay.stats(), problem: `${o.name}: ${e instanceof Error ? e.message : String(e)}` };
  } finally {
    await stop();
  }
}
