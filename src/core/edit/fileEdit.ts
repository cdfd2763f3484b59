import { MAX_CATALOG_FILE_BYTES, readRegularFile } from '../os/readRegularFile';
import { writeFileAtomic } from './atomicWrite';
import { applyPatchSpec, type PatchSpec, type PatchSpecOutcome } from './editSpec';
import { StaleRefError } from './errors';
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
  /** False when `before` came from `fallbackContent` or the file is new. */
  readFromDisk: boolean;
  diff: LineDiff;
  outcome: PatchSpecOutcome;
}

async function readText(file: string): Promise<string | null> {
  try {
    // Never blocks on a FIFO or reads an oversized file: those throw with what they are (readRegularFile).
    return (await readRegularFile(file, MAX_CATALOG_FILE_BYTES)).bytes.toString('utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
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
  const onDisk = await readText(await resolveInsideReal(req.skillDir, rel, 'file'));
  const before = onDisk ?? req.fallbackContent ?? null;
  const beforeRef = before === null ? null : digestOf(before);
  if (req.expectedRef !== undefined && req.expectedRef !== beforeRef) throw await staleError(req, rel, before, beforeRef);
  const outcome: PatchSpecOutcome =
    req.change.format === 'replace'
      ? { text: req.change.content, changed: req.change.content !== before, eol: 'none', finalNewline: req.change.content.endsWith('\n'), warnings: [] }
      : applyPatchSpec(before ?? '', req.change, `${req.skillId}/${rel}`);
  return { skillId: req.skillId, skillDir: req.skillDir, file: rel, before: before ?? '', after: outcome.text, beforeRef, afterRef: digestOf(outcome.text), readFromDisk: onDisk !== null, diff: renderLineDiff(before ?? '', outcome.text), outcome };
}

/**
 * Writes a prepared edit atomically and records it in the revision store. Refuses with
 * StaleRefError when the file changed on disk since it was prepared (e.g. edited while
 * the user was looking at the confirmation).
 */
export async function commitFileEdit(prepared: PreparedFileEdit, opts: { store?: RevisionStore; reason: string }): Promise<{ ref: VersionRef; record?: RevisionRecord }> {
  const target = await resolveInsideReal(prepared.skillDir, prepared.file, 'file');
  const now = await readText(target);
  const nowRef = now === null ? null : digestOf(now);
  const changed = prepared.readFromDisk ? nowRef !== prepared.beforeRef : now !== null;
  if (changed) {
    throw new StaleRefError(`${prepared.skillId}/${prepared.file}`, prepared.beforeRef ?? 'none', nowRef, unifiedDiffOf(prepared.before, now ?? '', prepared.file));
  }
  await writeFileAtomic(target, prepared.after);
  const record = opts.store
    ? await opts.store.append({ skillId: prepared.skillId, file: prepared.file, content: prepared.after, reason: opts.reason, previousRef: prepared.beforeRef })
    : undefined;
  return { ref: prepared.afterRef, record };
}
