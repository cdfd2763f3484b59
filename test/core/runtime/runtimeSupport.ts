import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SkillRecord, SkillScope } from '../../../src/core/registry/registryTypes';
import type { SkillSource } from '../../../src/core/runtime';
import { parseSkillFile } from '../../../src/core/skill/parseSkillFile';
import { sourceOf } from '../../../src/core/sources';

/** Writes a skill folder `<root>/<name>/SKILL.md` plus extra files; returns the skill folder. */
export function writeSkill(
  root: string,
  name: string,
  opts: { description?: string; body?: string; frontmatter?: string; files?: Record<string, string | Buffer> } = {},
): string {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  const fm = [`name: ${name}`, `description: ${opts.description ?? `Does ${name} things. Use when the user asks for ${name}.`}`, opts.frontmatter ?? ''].filter(Boolean).join('\n');
  fs.writeFileSync(path.join(dir, 'SKILL.md'), `---\n${fm}\n---\n\n${opts.body ?? `# ${name}\n\nInstructions for ${name}.`}\n`);
  for (const [rel, data] of Object.entries(opts.files ?? {})) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), data);
  }
  return dir;
}

/** A SkillRecord for a real skill folder, built with the real parser (what the registry would record). */
export function recordOf(dir: string, scope: SkillScope = 'workspace'): SkillRecord {
  const location = path.join(dir, 'SKILL.md');
  const bytes = fs.readFileSync(location);
  const parsed = parseSkillFile(bytes.toString('utf8'));
  const name = typeof parsed.properties.name === 'string' ? parsed.properties.name : path.basename(dir);
  return {
    id: `${sourceOf(scope).idPrefix}:${name}`,
    name,
    description: typeof parsed.properties.description === 'string' ? parsed.properties.description : '',
    location,
    rootDir: dir,
    scope,
    root: { path: path.dirname(dir), scope },
    properties: parsed.properties,
    digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
    diagnostics: parsed.diagnostics,
    status: 'ok',
    shadows: [],
  };
}

/** A SkillSource over every skill folder directly under `roots` (re-read on each call, like a live registry). */
export function folderSource(...roots: string[]): SkillSource {
  const list = (): SkillRecord[] =>
    roots.flatMap((r) =>
      fs
        .readdirSync(r, { withFileTypes: true })
        .filter((d) => d.isDirectory() && fs.existsSync(path.join(r, d.name, 'SKILL.md')))
        .map((d) => recordOf(path.join(r, d.name))),
    );
  return {
    list,
    resolve: (nameOrId) => list().find((s) => s.name === nameOrId || s.id === nameOrId),
  };
}
