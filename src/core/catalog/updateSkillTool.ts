import { applyPatchSpec, type PatchSpec } from '../edit/editSpec';
import type { VersionRef } from '../edit/versionRef';
import { audited, type CatalogAuditOptions } from './catalogAudit';
import { ToolError } from '../tools/toolError';
import { editFrontmatter } from './frontmatterEdit';
import type { SkillCatalog } from './skillCatalog';
import { archiveCatalogSkill, copySkill, createSkill, restoreRevision, unarchiveSkill, type LifecycleOutcome, type NewSkillOutcome } from './skillLifecycle';
import { updateSkillInputSchema, type UpdateSkillInput } from './catalogToolInputs';
import { CATALOG_TOOLS } from '../tools/toolNames';
import { settle, type ToolResult } from '../tools/toolResult';
import { writeSkillFile, type WriteOutcome } from './writeSkillFile';

/** What updateSkill returns, per action. */
export type UpdateResult =
  | ({ action: 'patch' | 'replace' | 'metadata' | 'restore'; hunks?: { index: number; expectedLine: number; appliedLine: number; offset: number; fuzz: number }[] } & WriteOutcome)
  | ({ action: 'create' | 'copy' } & NewSkillOutcome)
  | ({ action: 'archive' | 'restore' } & LifecycleOutcome);

async function update(catalog: SkillCatalog, input: UpdateSkillInput): Promise<UpdateResult> {
  const common = {
    expectedVersionRef: input.expectedVersionRef as VersionRef | undefined,
    dryRun: input.dryRun,
    force: input.force,
  };
  switch (input.action) {
    case 'create':
      return {
        action: 'create',
        ...(await createSkill(catalog, { scope: input.scope!, name: input.name!, description: input.description!, body: input.body!, frontmatter: input.frontmatter, files: input.files, dryRun: input.dryRun, force: input.force, reason: input.reason })),
      };
    case 'copy':
      return { action: 'copy', ...(await copySkill(catalog, { skill: input.skill!, toScope: input.toScope!, toName: input.toName, dryRun: input.dryRun, force: input.force })) };
    case 'archive':
      if (input.dryRun) throw new ToolError('invalid_input', 'archive has no dry run: it changes nothing inside the skill and can be undone with restore.');
      return { action: 'archive', ...(await archiveCatalogSkill(catalog, { skill: input.skill!, reason: input.reason })) };
    case 'restore':
      if (input.revision !== undefined) return { action: 'restore', ...(await restoreRevision(catalog, { skill: input.skill!, revision: input.revision, file: input.file, ...common })) };
      return { action: 'restore', ...(await unarchiveSkill(catalog, { skill: input.skill! })) };
    case 'patch': {
      const entry = catalog.resolve(input.skill!);
      const file = input.file ?? 'SKILL.md';
      const spec: PatchSpec = input.diff !== undefined ? { format: 'unifiedDiff', diff: input.diff, fuzzFactor: input.fuzzFactor } : { format: 'lineEdits', edits: input.edits! };
      let hunks: { index: number; expectedLine: number; appliedLine: number; offset: number; fuzz: number }[] | undefined;
      const out = await writeSkillFile(catalog, {
        entry,
        file,
        ...common,
        reason: input.reason ?? 'patch',
        produce(current) {
          if (current === null) throw new ToolError('not_found', `${entry.id} has no file '${file}' to patch; create it with action 'replace' (content) first.`);
          const r = applyPatchSpec(current, spec, `${entry.id}/${file}`);
          hunks = r.hunks?.map((h) => ({ index: h.index, expectedLine: h.expectedLine, appliedLine: h.appliedLine, offset: h.offset, fuzz: h.fuzz }));
          return { text: r.text, warnings: r.warnings };
        },
      });
      return { action: 'patch', ...out, ...(hunks ? { hunks } : {}) };
    }
    case 'replace': {
      const entry = catalog.resolve(input.skill!);
      return { action: 'replace', ...(await writeSkillFile(catalog, { entry, file: input.file ?? 'SKILL.md', ...common, reason: input.reason ?? 'replace', produce: () => ({ text: input.content! }) })) };
    }
    case 'metadata': {
      const entry = catalog.resolve(input.skill!);
      const out = await writeSkillFile(catalog, {
        entry,
        file: 'SKILL.md',
        ...common,
        reason: input.reason ?? `metadata: ${Object.keys(input.fields!).join(', ')}`,
        produce(current) {
          if (current === null) throw new ToolError('not_found', `${entry.id} has no SKILL.md.`);
          return { text: editFrontmatter(current, input.fields!, `${entry.id}/SKILL.md`).text };
        },
      });
      return { action: 'metadata', ...out };
    }
  }
}

/**
 * The `updateSkill` tool: validates the input with zod and performs the action. Expected errors come back as
 * `{ ok: false, error }`. With `audit`, every call (dry runs and refusals included) appends one audit line.
 */
export function invokeUpdateSkill(catalog: SkillCatalog, rawInput: unknown, opts: CatalogAuditOptions = {}): Promise<ToolResult<UpdateResult>> {
  return audited(CATALOG_TOOLS.updateSkill.name, rawInput, opts, () => settle(CATALOG_TOOLS.updateSkill.name, () => update(catalog, updateSkillInputSchema.parse(rawInput))));
}

/** What a confirmation dialog shows before a write. */
export interface UpdatePreview {
  /** One line: what will happen. */
  title: string;
  /** The line-numbered diff of the dry run ('' for archive / restore of a whole skill). */
  diff: string;
  warnings: string[];
}

/**
 * The dry run of an updateSkill call, for the VS Code confirmation dialog (`prepareInvocation`). Nothing is written.
 * Fails like the real call would (stale ref, invalid result, bad patch).
 */
export async function previewUpdate(catalog: SkillCatalog, rawInput: unknown): Promise<ToolResult<UpdatePreview>> {
  return settle(CATALOG_TOOLS.updateSkill.name, async (): Promise<UpdatePreview> => {
    const input = updateSkillInputSchema.parse(rawInput);
    if (input.action === 'archive' || (input.action === 'restore' && input.revision === undefined)) {
      const what = input.action === 'archive' ? 'Archive' : 'Restore the archived skill';
      return { title: `${what} ${input.skill}`, diff: '', warnings: [] };
    }
    const r = await update(catalog, { ...input, dryRun: true });
    if (!('diff' in r)) throw new Error('dry run returned no diff');
    const target = 'file' in r ? `${r.skillId}/${r.file}` : r.skillId;
    return { title: `${input.action} ${target}`, diff: r.diff, warnings: r.warnings };
  });
}
