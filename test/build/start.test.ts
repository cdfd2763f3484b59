// `npm start` without a `code` command: builds, serves the sample workspace with the extension
// under development from the cached code-server on 127.0.0.1, prints the URL, stops on Ctrl-C.
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

/** Loads the workbench in chromium and waits for the Skills view ("Available") to show in the side bar. */
async function assertOpensOnSkillsView(url: string, profile: string): Promise<void> {
  const { openWorkbench } = (await import(pathToFileURL(path.join(root, 'test', 'harness', 'browser.mjs')).href)) as { openWorkbench: OpenWorkbench };
  const errors: string[] = [];
  const browser = await openWorkbench({ executablePath: '/usr/bin/chromium', url, profileRoot: profile, onLog: (level, args) => level === 'error' && errors.push(String(args)) });
  try {
    // The workbench first shows the Explorer; the extension (activated on startup) then switches to its view.
    await browser.page.waitForSelector('.part.sidebar .pane-header:has-text("Available")', { timeout: 180_000 });
    assert.ok(await browser.page.isVisible('.part.sidebar .pane-header:has-text("Sessions")'), 'the Skills view shows no Sessions pane');
  } catch (e) {
    throw new Error(`the workbench did not open on the Skills view: ${(e as Error).message}\n${errors.slice(0, 5).join('\n')}`);
  } finally {
    await browser.close();
  }
}

describe('npm start (code-server fallback)', function () {
  this.timeout(10 * 60_000);

  before(function () {
    requireRealVscode(this);
  });

  it('prints a loopback URL that opens the sample workspace on the Skills view, and stops on SIGINT', async () => {
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'start-test-'));
    const child = spawn(process.execPath, [path.join(root, 'scripts', 'start.mjs'), '--code-server', '--profile', profile], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL within 120 s:\n${output}`)), 120_000);
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
      const payload = JSON.parse(u.searchParams.get('payload') ?? '[]') as [string, string][];
      const dev = payload.find(([k]) => k === 'extensionDevelopmentPath')?.[1] ?? '';
      assert.equal(new URL(dev).pathname, root);
      const page = await fetch(url);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /workbench/i);
      await assertOpensOnSkillsView(url, profile);
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
