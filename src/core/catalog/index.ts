/**
 * The unified skill catalog (seed 003): one service over workspace, user, plugin and pack skills, and the
 * two agent tools over it, `runSkill` (list / inspect / run) and `updateSkill` (patch-first edits with
 * revisions). No VS Code imports.
 */
export * from './catalogTypes';
export { SkillCatalog, type SkillCatalogOptions, type CatalogFile, type EffectiveContent } from './skillCatalog';
export { mountPack, packNameOf, type MountedPack } from './packMounts';
export { chunkAt, chunkStarts, isText, type ContentChunk } from './chunking';
export { splitArguments, substituteArguments, type ResolvedArguments } from './skillArguments';
export { editFrontmatter, frontmatterValueSchema, type FrontmatterEdit, type FrontmatterValue } from './frontmatterEdit';
export { validateProposed, type ProposedSkill, type ProposedValidation } from './validateProposed';
export { writeSkillFile, type WriteOutcome, type WriteRequest, type RevisionSummary } from './writeSkillFile';
export { createSkill, copySkill, archiveCatalogSkill, unarchiveSkill, restoreRevision, skillFileText, type NewSkillOutcome, type LifecycleOutcome } from './skillLifecycle';
export { runSkillInputSchema, updateSkillInputSchema, type RunSkillInput, type UpdateSkillInput } from './catalogToolInputs';
export { invokeRunSkill, type RunSkillOptions, type ListResult, type InspectResult, type RunResult, type CatalogListEntry } from './runSkillTool';
export { invokeUpdateSkill, previewUpdate, type UpdateResult, type UpdatePreview } from './updateSkillTool';
export { audited, catalogAuditEntry, type AuditSink, type CatalogAuditOptions } from './catalogAudit';
export { toolSurfaceSchema, toolFamilies, minimalToolGuidance, bothToolGuidanceNote, DEFAULT_CATALOG_TOOL_NAMES, type ToolSurface, type CatalogToolNames } from './catalogSurface';
export { runtimeSessionLoader, type RuntimeLike } from './sessionLoader';
