import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const FIXTURE = path.resolve(__dirname, '../../fixtures/registry');

export function tempDir(prefix = 'registry-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Writes `<root>/<folder>/<file>` holding a minimal valid SKILL.md (or `text` as given). */
export function writeSkill(root: string, folder: string, opts: { name?: string; description?: string; text?: string; file?: string } = {}): string {
  const dir = path.join(root, folder);
  fs.mkdirSync(dir, { recursive: true });
  const text = opts.text ?? `---\nname: ${opts.name ?? folder}\ndescription: ${opts.description ?? `Does ${folder}. Use when ${folder} is needed.`}\n---\n\n# ${folder}\n`;
  fs.writeFileSync(path.join(dir, opts.file ?? 'SKILL.md'), text);
  return dir;
}
