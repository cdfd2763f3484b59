// Opens a VS Code workbench URL in Debian's headless chromium (driven by playwright-core) and
// relays the smoke-test driver's callbacks: codeAutomationLog (output) and codeAutomationExit.
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/**
 * Launches chromium on `url`; `onLog(level, text)` gets each workbench log line.
 * Resolves `exitCode` with the code the workbench reports when the extension tests end.
 * @param {{ executablePath: string, url: string, profileRoot: string, onLog: (level: string, args: unknown) => void }} o
 */
export async function openWorkbench(o) {
  // A persistent context on a fresh folder inside the run folder: nothing shared between runs.
  const context = await chromium.launchPersistentContext(mkdtempSync(join(o.profileRoot, 'chromium-')), {
    executablePath: o.executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  /** @type {(code: number) => void} */
  let reportExit = () => {};
  const exitCode = new Promise((resolve) => (reportExit = resolve));
  const page = context.pages()[0] ?? (await context.newPage());
  await page.exposeFunction('codeAutomationLog', (level, args) => o.onLog(String(level), args));
  await page.exposeFunction('codeAutomationExit', (code) => reportExit(Number(code)));
  page.on('crash', () => o.onLog('error', ['[harness] the workbench page crashed']));
  page.on('pageerror', (e) => o.onLog('error', [`[harness] page error: ${e.message}`]));
  await page.goto(o.url, { waitUntil: 'domcontentloaded' });
  return { context, page, exitCode, close: () => context.close().catch(() => {}) };
}
