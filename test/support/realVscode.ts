import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

/** Where scripts/setup-vscode.mjs installs code-server and Node 24: SKILLS_VSCODE_CACHE, else .cache/vscode. */
export function vscodeCacheDir(): string {
  return path.resolve(process.env.SKILLS_VSCODE_CACHE ?? path.join(root, '.cache', 'vscode'));
}

/**
 * For tests that start a real VS Code: skips (with the reason printed) when SKIP_VSCODE_TESTS=1,
 * otherwise makes sure scripts/setup-vscode.mjs has installed code-server and chromium (minutes on a
 * fresh machine, instant afterwards).
 */
export function requireRealVscode(ctx: Mocha.Context, what = 'no VS Code is started'): void {
  if (process.env.SKIP_VSCODE_TESTS === '1') {
    console.log(`    (skipped: SKIP_VSCODE_TESTS=1 is set, so ${what})`);
    ctx.skip();
  }
  const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'setup-vscode.mjs')], { cwd: root, encoding: 'utf8' });
  assert.equal(r.status, 0, `scripts/setup-vscode.mjs failed:\n${r.stdout}${r.stderr}`);
}
