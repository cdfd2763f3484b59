import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { MemoryHost } from '../../../src/core/host';

export const FIXTURE = path.resolve(__dirname, '../../fixtures/registry');

export function tempDir(prefix = 'registry-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Writes `<root>/<folder>/<file>` holding a minimal valid SKILL.md (or `text` as given). */
export function writeSkill(root: string, folder: string, opts: { name?: string; description?: string; text?: string; file?: string } = {}): string {
  const dir = path.join(root, folder);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, opts.file ?? 'SKILL.md'), skillText(folder, opts));
  return dir;
}

/** The same skill as {@link writeSkill}, written into an in-memory host. */
export function writeMemSkill(host: MemoryHost, root: string, folder: string, opts: { name?: string; description?: string; text?: string; file?: string } = {}): string {
  const dir = path.join(root, folder);
  host.write(path.join(dir, opts.file ?? 'SKILL.md'), skillText(folder, opts));
  return dir;
}

function skillText(folder: string, opts: { name?: string; description?: string; text?: string }): string {
  return opts.text ?? `---\nname: ${opts.name ?? folder}\ndescription: ${opts.description ?? `Does ${folder}. Use when ${folder} is needed.`}\n---\n\n# ${folder}\n`;
}
