import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot } from './lspTestClient';

/** Copies test/fixtures/<scenario> into a fresh temp folder and returns its path. */
export function copyFixture(scenario: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `skills-lsp-${scenario}-`));
  fs.cpSync(path.join(repoRoot, 'test/fixtures', scenario), dir, { recursive: true });
  return dir;
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}
