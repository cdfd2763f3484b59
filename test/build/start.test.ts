// `npm start` without a `code` command: packs and installs the extension into the cached code-server as a user
// gets it (workspace trust on, no smoke-test driver), serves the sample workspace on 127.0.0.1, prints the URL,
// stops on Ctrl-C. Driven here as a user would: chromium opens the URL, sees Restricted Mode, runs a command from
// the palette, and sees its notification pop up.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { requireRealVscode } from '../support/realVscode';

const root = path.resolve(__dirname, '..', '..');

/** The harness's browser (test/harness/browser.mjs), typed for what this test uses. */
type OpenWorkbench = (o: { executablePath: string; url: string; profileRoot: string; onLog: (level: string, args: unknown) => void }) => Promise<{
  page: import('playwright-core').Page;
  close(): Promise<void>;
}>;

/**
 * Loads the workbench in chromium: it opens on the Skills view in Restricted Mode (the folder is not trusted yet),
 * and a command that fails shows its error as a notification pop-up, with its button.
 */
async function tryAsUser(url: string, profile: string): Promise<void> {
  const { openWorkbench } = (await import(pathToFileURL(path.join(root, 'test', 'harness', 'browser.mjs')).href)) as { openWorkbench: OpenWorkbench };
  const errors: string[] = [];
  const browser = await openWorkbench({ executablePath: '/usr/bin/chromium', url, profileRoot: profile, onLog: (level, args) => level === 'error' && errors.push(String(args)) });
  const page = browser.page;
  let step = 'the Skills view';
  try {
    // The extension (installed from its .vsix, activated on startup) switches to its view.
    await page.waitForSelector('.part.sidebar .pane-header:has-text("Available")', { timeout: 180_000 });
    assert.ok(await page.isVisible('.part.sidebar .pane-header:has-text("Sessions")'), 'the Skills view shows no Sessions pane');
    // Workspace trust is on: the folder is in Restricted Mode until the user trusts it (VS Code in the browser
    // shows it in the status bar and a banner; a desktop-style prompt, if one shows, is answered "no" as a user not sure yet would).
    step = 'Restricted Mode';
    const prompt = page.locator('.monaco-dialog-box .monaco-button').filter({ hasText: /don.t trust/i });
    if (await prompt.count()) await prompt.first().click();
    await page.locator('.statusbar-item').filter({ hasText: 'Restricted Mode' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    step = 'the Skills view saying the workspace skills are hidden';
    await page.locator('.part.sidebar .welcome-view-content').filter({ hasText: 'hidden until you trust' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    step = 'Run Script from the command palette';
    await page.keyboard.press('F1');
    await page.locator('.quick-input-widget input').first().waitFor({ state: 'visible', timeout: 30_000 });
    await page.keyboard.type('Agent Skills: Run Script');
    await page.locator('.quick-input-list .monaco-list-row').filter({ hasText: 'Agent Skills: Run Script' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    await page.keyboard.press('Enter');
    step = 'the notification pop-up';
    // In Restricted Mode it refuses: its error pops up (a toast, not only the notification center) with its button.
    const toast = page.locator('.notifications-toasts .notification-toast').filter({ hasText: 'Trust this folder to run skill scripts' }).first();
    await toast.waitFor({ state: 'visible', timeout: 60_000 });
    assert.ok(await toast.locator('.monaco-button').filter({ hasText: 'Manage Workspace Trust' }).isVisible(), 'the notification has no Manage Workspace Trust button');
  } catch (e) {
    const shot = path.join(os.tmpdir(), `npm-start-failed-${process.pid}.png`);
    const saved = await page.screenshot({ path: shot }).then(() => ` (screenshot: ${shot})`, () => '');
    throw new Error(`as a user, ${step} did not show${saved}: ${(e as Error).message.split('\n')[0]}\n${errors.slice(0, 5).join('\n')}`);
  } finally {
    await browser.close();
  }
}

describe('npm start (code-server fallback)', function () {
  this.timeout(10 * 60_000);

  before(function () {
    requireRealVscode(this);
  });

  it('prints a loopback URL of a VS Code as a user gets it (Restricted Mode until trusted, notifications pop up), on the Skills view; stops on SIGINT', async () => {
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'start-test-'));
    const child = spawn(process.execPath, [path.join(root, 'scripts', 'start.mjs'), '--code-server', '--profile', profile], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL within 300 s:\n${output}`)), 300_000);
        const onData = (d: Buffer) => {
          output += d.toString();
          const m = /^\s+(http:\/\/127\.0\.0\.1:\d+\/\?\S+)$/m.exec(output);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]);
          }
        };
        child.stdout.on('data', onData);
        child.stderr.on('data', (d: Buffer) => (output += d.toString()));
        void exited.then((c) => reject(new Error(`npm start exited (${c}) before printing a URL:\n${output}`)));
      });
      const u = new URL(url);
      const folder = u.searchParams.get('folder') ?? '';
      assert.ok(fs.existsSync(path.join(folder, '.github', 'skills', 'greeting', 'SKILL.md')), `folder ${folder} is not the sample workspace`);
      // No test payload: the extension is installed, not under development through the smoke-test driver.
      assert.equal(u.searchParams.get('payload'), null, url);
      assert.match(output, /code-server lists: .*agent-skills-runtime\.agent-skills-runtime@/);
      const leader = /process group (\d+)/.exec(output);
      assert.ok(leader, output);
      const cmdline = fs.readFileSync(`/proc/${leader[1]}/cmdline`, 'utf8').split('\0').join(' ');
      assert.match(cmdline, /code-server/, cmdline);
      assert.doesNotMatch(cmdline, /enable-smoke-test-driver|disable-workspace-trust/, cmdline);
      const page = await fetch(url);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /workbench/i);
      await tryAsUser(url, profile);
    } finally {
      child.kill('SIGINT');
      await exited;
      fs.rmSync(profile, { recursive: true, force: true });
    }
    const group = /process group (\d+)/.exec(output);
    assert.ok(group, output);
    assert.throws(() => process.kill(-Number(group[1]), 0), /ESRCH/, 'code-server is still running after Ctrl-C');
  });
});
