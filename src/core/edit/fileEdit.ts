import type { WritableHost } from '../host/fileWrites';
import { localDisk } from '../host/localDisk';
import { readBytesOrNull } from '../host/readBytes';
import type { SkillsHost } from '../host/skillsHost';
import { MAX_CATALOG_FILE_BYTES } from '../os/readRegularFile';
import { applyPatchSpec, type PatchSpec, type PatchSpecOutcome } from './editSpec';
import { StaleRefError } from './editErrors';
import { renderLineDiff, unifiedDiffOf, type LineDiff } from './lineDiff';
import type { RevisionRecord, RevisionStore } from './revisionStore';
import { normalizeRelativePath, resolveInsideReal } from './safePath';
import { digestOf, type VersionRef } from './versionRef';

/** A patch, or a whole new content ("replace"). */
export type FileChange = PatchSpec | { format: 'replace'; content: string };

/** Input of {@link prepareFileEdit}. */
export interface FileEditRequest {
  skillId: string;
  /** Folder the file is read from and written to (the skill folder, or its overlay). */
  skillDir: string;
  /** Path relative to skillDir. */
  file: string;
  change: FileChange;
  /** The ref the caller based the change on; a different current ref fails with StaleRefError. */
  expectedRef?: VersionRef;
  /** Used to show what changed since `expectedRef` when it is stale. */
  store?: RevisionStore;
  /** Content to patch when the file is not in skillDir (an overlay's first edit reads the source). */
  fallbackContent?: string;
  /** Where the file is read (and later written): the local disk by default. */
  files?: WritableHost;
}

/** A computed edit, not yet written: show `diff`, validate `after`, then {@link commitFileEdit}. */
export interface PreparedFileEdit {
  skillId: string;
  skillDir: string;
  file: string;
  before: string;
  after: string;
  /** null when the file did not exist. */
  beforeRef: VersionRef | null;
  afterRef: VersionRef;
  /** False when `before` came from `fallbackContent` or the file is new; true when it was read from skillDir (through the host). */
  readFromDisk: boolean;
  diff: LineDiff;
  outcome: PatchSpecOutcome;
  /** The host it was read through, which {@link commitFileEdit} writes through. */
  files: WritableHost;
}

/** The file's text, null when absent. Never blocks on a FIFO or reads an oversized file: the hosts refuse those. */
async function readText(files: SkillsHost, file: string): Promise<string | null> {
  return (await readBytesOrNull(files, file, MAX_CATALOG_FILE_BYTES))?.toString('utf8') ?? null;
}

async function staleError(req: FileEditRequest, rel: string, current: string | null, currentRef: VersionRef | null): Promise<StaleRefError> {
  let diff: string | undefined;
  if (req.store && req.expectedRef) {
    const old = (await req.store.history(req.skillId, rel)).reverse().find((r) => r.digest === req.expectedRef);
    const oldContent = old ? await req.store.content(old).catch(() => null) : null;
    if (oldContent) diff = unifiedDiffOf(oldContent.toString('utf8'), current ?? '', rel);
  }
  return new StaleRefError(`${req.skillId}/${rel}`, req.expectedRef ?? 'none', currentRef, diff);
}

/**
 * Reads the file, checks `expectedRef`, applies the change in memory and renders the
 * line-numbered diff. Writes nothing: a dry run stops here; otherwise validate `after`,
 * ask for confirmation, then call {@link commitFileEdit}.
 */
export async function prepareFileEdit(req: FileEditRequest): Promise<PreparedFileEdit> {
  const rel = normalizeRelativePath(req.file, 'file');
  const files = req.files ?? localDisk;
  const onDisk = await readText(files, await resolveInsideReal(req.skillDir, rel, 'file', files));
  const before = onDisk ?? req.fallbackContent ?? null;
  const beforeRef = before === null ? null : digestOf(before);
  if (req.expectedRef !== undefined && req.expectedRef !== beforeRef) throw await staleError(req, rel, before, beforeRef);
  const outcome: PatchSpecOutcome =
    req.change.format === 'replace'
      ? { text: req.change.content, changed: req.change.content !== before, eol: 'none', finalNewline: req.change.content.endsWith('\n'), warnings: [] }
      : applyPatchSpec(before ?? '', req.change, `${req.skillId}/${rel}`);
  return { skillId: req.skillId, skillDir: req.skillDir, file: rel, before: before ?? '', after: outcome.text, beforeRef, afterRef: digestOf(outcome.text), readFromDisk: onDisk !== null, diff: renderLineDiff(before ?? '', outcome.text), outcome, files };
}

/**
 * Writes a prepared edit atomically and records it in the revision store. Refuses with
 * StaleRefError when the file changed (in its host) since it was prepared (e.g. edited while
 * the user was looking at the confirmation).
 */
export async function commitFileEdit(prepared: PreparedFileEdit, opts: { store?: RevisionStore; reason: string }): Promise<{ ref: VersionRef; record?: RevisionRecord }> {
  const { files } = prepared;
  const target = await resolveInsideReal(prepared.skillDir, prepared.file, 'file', files);
  const now = await readText(files, target);
  const nowRef = now === null ? null : digestOf(now);
  const changed = prepared.readFromDisk ? nowRef !== prepared.beforeRef : now !== null;
  if (changed) {
    throw new StaleRefError(`${prepared.skillId}/${prepared.file}`, prepared.beforeRef ?? 'none', nowRef, unifiedDiffOf(prepared.before, now ?? '', prepared.file));
  }
  await files.writeFile(target, prepared.after);
  const record = opts.store
    ? await opts.store.append({ skillId: prepared.skillId, file: prepared.file, content: prepared.after, reason: opts.reason, previousRef: prepared.beforeRef })
    : undefined;
  return { ref: prepared.afterRef, record };
}
