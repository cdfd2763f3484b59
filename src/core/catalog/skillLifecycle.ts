import * as path from 'node:path';
import { Document } from 'yaml';
import { archiveSkill, listArchived, restoreArchived } from '../edit/archive';
import { createDirAtomic } from '../edit/atomicWrite';
import { renderLineDiff } from '../edit/lineDiff';
import { normalizeRelativePath } from '../edit/safePath';
import { digestOf, type VersionRef } from '../edit/versionRef';
import type { SkillDiagnostic } from '../skill/skillTypes';
import { sourceOf } from '../sources';
import { ToolError } from '../tools/toolError';
import { editFrontmatter } from './frontmatterEdit';
import type { SkillCatalog } from './skillCatalog';
import type { CatalogEntry, WritableScope } from './catalogTypes';
import { validateProposed } from './validateProposed';
import { serializeBySkill, summarize, writeSkillFile, type RevisionSummary, type WriteOutcome } from './writeSkillFile';

/** Result of create and copy. */
export interface NewSkillOutcome {
  skillId: string;
  dir: string;
  dryRun: boolean;
  written: boolean;
  /** Ref of the new SKILL.md. */
  versionRef: VersionRef;
  files: string[];
  /** Line-numbered diff of SKILL.md against nothing. */
  diff: string;
  diagnostics: SkillDiagnostic[];
  warnings: string[];
  /** For copy: where it came from. */
  origin?: { skillId: string; versionRef: VersionRef };
  revisions: RevisionSummary[];
}

/** Result of archive and restore (unarchive). */
export interface LifecycleOutcome {
  skillId: string;
  change: 'archived' | 'restored';
  /** `moved` for workspace and user skills (folder moved into `.archived/`), `hidden` for plugin and pack skills. */
  how: 'moved' | 'hidden';
  /** Archive entry id (moved skills), to restore this exact archive. */
  archiveId?: string;
  path?: string;
}

const idFor = (scope: WritableScope, name: string) => `${sourceOf(scope).idPrefix}:${name}`;
const NAME_RE = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

function checkName(name: string): void {
  if (!NAME_RE.test(name) || name.includes('--')) {
    throw new ToolError('invalid_input', `The skill name '${name}' is not valid: use 1-64 lowercase letters, digits and single hyphens, not starting or ending with a hyphen (e.g. 'pdf-tools').`);
  }
}

/** The text of a new SKILL.md: YAML frontmatter (name, description, extra fields) and the body. */
export function skillFileText(name: string, description: string, body: string, extra: Record<string, unknown> = {}): string {
  const yaml = new Document({ name, description, ...extra }).toString({ lineWidth: 0 });
  const b = body.replace(/^\n+/, '');
  return `---\n${yaml}---\n\n${b}${b.endsWith('\n') || b === '' ? '' : '\n'}`;
}

async function writeNewSkill(
  catalog: SkillCatalog,
  scope: WritableScope,
  name: string,
  files: Map<string, string>,
  opts: { dryRun?: boolean; force?: boolean; reason: string },
): Promise<Omit<NewSkillOutcome, 'origin'>> {
  checkName(name);
  const root = catalog.writableRoot(scope);
  if (!root) throw new ToolError('no_writable_root', `No ${scope} skills folder is configured, so a ${scope} skill cannot be written. Open a workspace folder or configure the ${scope} skills root.`);
  const dir = path.join(root, name);
  const id = idFor(scope, name);
  return serializeBySkill(id, async () => {
    const skillMd = files.get('SKILL.md') ?? '';
    const checked = await validateProposed({ skillDir: dir, files, host: catalog.host }, { isNew: true });
    const warnings: string[] = [];
    if (checked.newErrors.length) {
      const list = checked.newErrors.map((d) => `- ${d.rule} (${d.file ?? 'SKILL.md'} line ${d.range.start.line + 1}): ${d.message}`).join('\n');
      if (!opts.force) throw new ToolError('invalid_result', `The new skill ${id} would be invalid, so nothing was written:\n${list}\nFix it, or pass force: true.`, undefined, { diagnostics: checked.diagnostics });
      warnings.push(`Written although the skill is invalid (force):\n${list}`);
    }
    const out = {
      skillId: id,
      dir,
      dryRun: opts.dryRun === true,
      written: false,
      versionRef: digestOf(skillMd),
      files: [...files.keys()].sort(),
      diff: renderLineDiff('', skillMd).text,
      diagnostics: checked.diagnostics,
      warnings,
      revisions: [] as RevisionSummary[],
    };
    if (opts.dryRun) {
      const exists = catalog.entries().some((e) => e.skillDir === dir);
      if (exists) warnings.push(`${dir} already exists: the real write would fail.`);
      return out;
    }
    await createDirAtomic(
      dir,
      [...files].map(([p, content]) => ({ path: p, content, mode: p.startsWith('scripts/') ? 0o755 : 0o644 })),
      catalog.host,
    );
    for (const [p, content] of files) out.revisions.push(summarize(await catalog.store.append({ skillId: catalog.historyKey({ id, skillDir: dir, writableAtSource: true }), file: p, content, reason: opts.reason, previousRef: null })));
    await catalog.addRoot({ path: root, scope, source: 'catalog' });
    await catalog.registry.refreshSkill(dir);
    return { ...out, written: true };
  });
}

/** `create`: writes a new, valid skill folder atomically. */
export function createSkill(
  catalog: SkillCatalog,
  input: { scope: WritableScope; name: string; description: string; body: string; frontmatter?: Record<string, unknown>; files?: { path: string; content: string }[]; dryRun?: boolean; force?: boolean; reason?: string },
): Promise<NewSkillOutcome> {
  const files = new Map<string, string>([['SKILL.md', skillFileText(input.name, input.description, input.body, input.frontmatter)]]);
  for (const f of input.files ?? []) {
    const rel = normalizeRelativePath(f.path, 'file');
    if (rel === 'SKILL.md') throw new ToolError('invalid_input', 'files[] must not contain SKILL.md: pass its body as `body` and its fields as `description` / `frontmatter`.');
    files.set(rel, f.content);
  }
  return writeNewSkill(catalog, input.scope, input.name, files, { dryRun: input.dryRun, force: input.force, reason: input.reason ?? 'create' });
}

/** `copy`: copies every effective file of a skill (newest revision) to another scope and/or name; the origin is recorded in the revision store. */
export async function copySkill(catalog: SkillCatalog, input: { skill: string; toScope: WritableScope; toName?: string; dryRun?: boolean; force?: boolean }): Promise<NewSkillOutcome> {
  const entry = catalog.resolve(input.skill);
  const name = input.toName ?? entry.name;
  const files = new Map<string, string>();
  for (const f of await catalog.files(entry)) {
    const c = await catalog.readFile(entry, f.path);
    if (c) files.set(f.path, c.content.toString('utf8'));
  }
  const warnings: string[] = [];
  const skillMd = files.get('SKILL.md');
  if (skillMd !== undefined && name !== entry.name) files.set('SKILL.md', editFrontmatter(skillMd, { name }).text);
  const reason = `copy of ${entry.id} at ${entry.versionRef}`;
  const out = await writeNewSkill(catalog, input.toScope, name, files, { dryRun: input.dryRun, force: input.force, reason });
  return { ...out, warnings: [...warnings, ...out.warnings], origin: { skillId: entry.id, versionRef: entry.versionRef } };
}

/** `archive`: reversibly removes a skill from the catalog (workspace/user folders move into `.archived/`; plugin and pack skills are hidden). */
export async function archiveCatalogSkill(catalog: SkillCatalog, input: { skill: string; reason?: string }): Promise<LifecycleOutcome> {
  const entry = catalog.resolve(input.skill);
  return serializeBySkill(entry.id, async () => {
    const skillMd = await catalog.readFile(entry, 'SKILL.md');
    const reason = `archive${input.reason ? `: ${input.reason}` : ''}`;
    await catalog.store.append({ skillId: catalog.historyKey(entry), file: 'SKILL.md', content: skillMd?.content ?? null, reason });
    if (!entry.writableAtSource) {
      await catalog.setHidden(entry.id, true);
      return { skillId: entry.id, change: 'archived', how: 'hidden' };
    }
    const archived = await archiveSkill(entry.skillDir, { archiveRoot: path.join(path.dirname(entry.skillDir), '.archived'), skillId: entry.id, reason: input.reason, files: catalog.host });
    await catalog.registry.refreshSkill(entry.skillDir);
    return { skillId: entry.id, change: 'archived', how: 'moved', archiveId: archived.manifest.id, path: archived.skillDir };
  });
}

/** Restores an archived skill (by id, name or archive entry id). */
export async function unarchiveSkill(catalog: SkillCatalog, input: { skill: string }): Promise<LifecycleOutcome> {
  const hidden = catalog.hiddenIds().filter((id) => id === input.skill || id.endsWith(`:${input.skill}`));
  if (hidden.length === 1) {
    await catalog.setHidden(hidden[0], false);
    return { skillId: hidden[0], change: 'restored', how: 'hidden' };
  }
  if (hidden.length > 1) throw new ToolError('ambiguous', `Several archived skills match '${input.skill}': ${hidden.join(', ')}. Restore one by its id.`, undefined, { ids: hidden });
  const roots = catalog.registry.snapshot().roots.filter((r) => !sourceOf(r.scope).readOnly);
  for (const root of roots) {
    const archiveRoot = path.join(root.path, '.archived');
    const match = (await listArchived(archiveRoot, catalog.host)).find((a) => a.complete && (a.manifest.skillId === input.skill || a.manifest.name === input.skill || a.manifest.id === input.skill));
    if (!match) continue;
    const restored = await restoreArchived(archiveRoot, match.manifest.id, { files: catalog.host });
    await catalog.registry.refreshSkill(restored.restoredTo);
    const skillId = match.manifest.skillId ?? match.manifest.name;
    return { skillId, change: 'restored', how: 'moved', archiveId: match.manifest.id, path: restored.restoredTo };
  }
  throw new ToolError('not_archived', `No archived skill matches '${input.skill}'. Archived read-only skills: ${catalog.hiddenIds().join(', ') || 'none'}; archived folders live in <skills root>/.archived/.`);
}

/** Restores an earlier revision of one file (by seq or version ref) through the normal write path. */
export async function restoreRevision(
  catalog: SkillCatalog,
  input: { skill: string; revision: number | string; file?: string; expectedVersionRef?: VersionRef; dryRun?: boolean; force?: boolean },
): Promise<WriteOutcome> {
  const entry: CatalogEntry = catalog.resolve(input.skill);
  const history = await catalog.history(entry, input.file);
  const wanted = String(input.revision);
  const record = /^\d+$/.test(wanted) ? history.find((r) => r.seq === Number(wanted)) : [...history].reverse().find((r) => r.ref === wanted || r.digest === wanted);
  if (!record) {
    const range = history.length ? `revisions ${history.map((r) => r.seq).join(', ')}` : 'no revisions';
    throw new ToolError('not_found', `${entry.id} has no revision ${wanted}${input.file ? ` of ${input.file}` : ''} (it has ${range}). List them with runSkill inspect (history: true).`);
  }
  const content = await catalog.store.content(record);
  if (content === null) throw new ToolError('invalid_input', `Revision ${record.seq} of ${entry.id} records the deletion of ${record.file}; there is no content to restore.`);
  return writeSkillFile(catalog, {
    entry,
    file: record.file,
    produce: () => ({ text: content.toString('utf8') }),
    expectedVersionRef: input.expectedVersionRef,
    dryRun: input.dryRun,
    force: input.force,
    reason: `restore revision ${record.seq} (${record.reason})`,
  });
}
