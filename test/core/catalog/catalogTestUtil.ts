import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createAgentSkills } from '../../../src/core/agentSkills';
import { SkillCatalog, type PackSpec } from '../../../src/core/catalog';
import { skillPacks, type SourceReaderSpec } from '../../../src/core/sourceReaders';
import type { SkillRoot } from '../../../src/core/registry';
import type { ToolErrorShape, ToolResult } from '../../../src/core/tools';

export function tempDir(prefix = 'catalog-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Writes `<root>/<folder>/SKILL.md` (a small valid skill unless `text` is given) and any extra files. */
export function writeSkill(root: string, folder: string, opts: { name?: string; description?: string; text?: string; body?: string; files?: Record<string, string> } = {}): string {
  const dir = path.join(root, folder);
  fs.mkdirSync(dir, { recursive: true });
  const text = opts.text ?? `---\nname: ${opts.name ?? folder}\ndescription: ${opts.description ?? `Does ${folder} things. Use when ${folder} is needed.`}\n---\n\n${opts.body ?? `# ${folder}\n\nStep one.\nStep two.\n`}`;
  fs.writeFileSync(path.join(dir, 'SKILL.md'), text);
  for (const [p, c] of Object.entries(opts.files ?? {})) {
    fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    fs.writeFileSync(path.join(dir, p), c);
  }
  return dir;
}

/** A world of skill roots in a temp folder. */
export interface World {
  base: string;
  workspace: string;
  user: string;
  plugin: string;
  stateDir: string;
  roots: SkillRoot[];
}

export function makeWorld(): World {
  const base = tempDir();
  const w = { base, workspace: path.join(base, 'ws'), user: path.join(base, 'home'), plugin: path.join(base, 'ext'), stateDir: path.join(base, 'state') };
  for (const d of [w.workspace, w.user, w.plugin]) fs.mkdirSync(d, { recursive: true });
  return {
    ...w,
    roots: [
      { path: w.workspace, scope: 'workspace', source: 'test' },
      { path: w.user, scope: 'user', source: 'test' },
      { path: w.plugin, scope: 'extension', source: 'acme.tools' },
    ],
  };
}

/** A catalog over the world's roots; with `packs`, through the one factory, whose pack source mounts them. */
export function openCatalog(w: World, packs: PackSpec[] | SourceReaderSpec = []): Promise<SkillCatalog> {
  const spec = Array.isArray(packs) ? (packs.length ? skillPacks(packs) : undefined) : packs;
  if (!spec) return SkillCatalog.open({ roots: w.roots, stateDir: w.stateDir });
  return createAgentSkills({ roots: w.roots, stateDir: w.stateDir, sources: [spec] }).catalog();
}

/** Asserts a tool result is ok and returns the tool's result. */
export function ok<T>(r: ToolResult<T>): T {
  if (!r.ok) throw new Error(`expected ok, got ${JSON.stringify(r.error)}`);
  return r.result;
}

/** Asserts a tool result failed and returns its error. */
export function failed(r: ToolResult): ToolErrorShape {
  if (r.ok) throw new Error(`expected a failure, got ${JSON.stringify(r.result).slice(0, 500)}`);
  return r.error;
}
