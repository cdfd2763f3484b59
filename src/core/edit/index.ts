/**
 * Storage and editing engine for skills: atomic writes, content-digest version refs,
 * patching (unified diffs and structured line edits), line-numbered diffs, an
 * append-only revision store with overlays for read-only skills, and reversible
 * archiving. Node builtins and pure npm packages only.
 */
export { createDirAtomic, fsyncDir, isTempName, sweepTempFiles, writeFileAtomic, type AtomicWriteOptions, type NewFile } from './atomicWrite';
export { EditError, StaleRefError, type EditErrorCode } from './editErrors';
export { joinInside, normalizeRelativePath, resolveInsideReal } from './safePath';
export {
  assertFileFresh,
  assertSkillFresh,
  checkFileRef,
  diffManifests,
  digestOf,
  fileVersionRef,
  refHex,
  skillManifest,
  skillRefOf,
  isVersionRef,
  type ManifestDiff,
  type ManifestEntry,
  type RefCheck,
  type SkillManifest,
  type VersionRef,
} from './versionRef';
export { joinLines, splitLines, textToLines, type EolStyle, type SplitText } from './textLines';
export { normalizeUnifiedDiff } from './unifiedDiff';
export { applyUnifiedDiff, parseSingleFileDiff, PatchHunkError, type HunkReport, type PatchOutcome, type UnifiedDiffOptions, type WhitespaceMode } from './patch';
export { applyLineEdits, type LineEdit, type LineEditOutcome, type LineEditReport } from './lineEdits';
export { applyPatchSpec, lineEditSchema, patchSpecSchema, versionRefSchema, type PatchSpec, type PatchSpecOutcome } from './editSpec';
export { contentWithLineNumbers, renderLineDiff, unifiedDiffOf, type LineDiff, type LineDiffOptions, type NumberingOptions } from './lineDiff';
export {
  parseLog,
  RevisionStore,
  type AppendInput,
  type InvalidLine,
  type RevisionLog,
  type RevisionRecord,
  type RevisionStoreOptions,
  type TornTail,
} from './revisionStore';
export { resolveEffectiveFile, SEED_REASON, SkillOverlay, type EffectiveFile, type OverlayWrite, type SkillOverlayOptions } from './overlay';
export {
  ARCHIVE_DIR_NAME,
  archiveSkill,
  defaultArchiveRoot,
  listArchived,
  restoreArchived,
  type ArchivedSkill,
  type ArchiveManifest,
  type ArchiveOptions,
} from './archive';
export { commitFileEdit, prepareFileEdit, type FileChange, type FileEditRequest, type PreparedFileEdit } from './fileEdit';
