import { readBytesOrNull } from '../host/readBytes';
import type { SkillsHost } from '../host/skillsHost';
import type { WritableHost } from '../host/fileWrites';
import { localDisk } from '../host/localDisk';
import { MAX_CATALOG_FILE_BYTES } from '../os/readRegularFile';
import { isTempName } from '../os/atomicFile';
import { StaleRefError } from './editErrors';
import type { RevisionRecord, RevisionStore } from './revisionStore';
import { normalizeRelativePath, resolveInsideReal } from './safePath';
import { digestOf, type VersionRef } from './versionRef';
import { walkSkill } from '../paths/walkSkill';

/** Reason recorded for the copy of the source taken before the first overlay edit of a file. */
export const SEED_REASON = 'seed: source content before the first overlay edit';

/** The content a reader should see for one file of a read-only skill. */
export interface EffectiveFile {
  /** Relative path, forward slashes. */
  path: string;
  /** Where the content was read from. */
  absPath: string;
  content: Buffer;
  origin: 'overlay' | 'source';
  ref: VersionRef;
}

/** The file's bytes, null when absent; never blocks on a FIFO nor reads an oversized file (the hosts refuse them). */
function readIfFile(host: SkillsHost, file: string): Promise<Buffer | null> {
  return readBytesOrNull(host, file, MAX_CATALOG_FILE_BYTES);
}

/**
 * Resolves the effective content of `relPath` for a skill whose source folder is read-only
 * (plugin and pack skills): the overlay copy when one exists (it is always the newest
 * revision), the source file otherwise, null when neither exists.
 */
export async function resolveEffectiveFile(sourceDir: string, overlayDir: string, relPath: string, host: SkillsHost = localDisk): Promise<EffectiveFile | null> {
  const rel = normalizeRelativePath(relPath, 'file');
  for (const [origin, root] of [['overlay', overlayDir], ['source', sourceDir]] as const) {
    const abs = await resolveInsideReal(root, rel, 'file', host);
    const content = await readIfFile(host, abs);
    if (content) return { path: rel, absPath: abs, content, origin, ref: digestOf(content) };
  }
  return null;
}

/** Every file under `root` but the temp files of atomic writes (an overlay or source folder: nothing else is left out). */
function listFilesUnder(host: SkillsHost, root: string): Promise<string[]> {
  return walkSkill(host, root, { skipName: isTempName, maxFiles: Infinity, maxDepth: Infinity });
}

/** Options of {@link SkillOverlay}. */
export interface SkillOverlayOptions {
  /** What the revisions are kept under in the store (the catalog's id and place, see SkillCatalog.historyKey). */
  skillId: string;
  /** The skill's id as messages name it (default `skillId`). */
  label?: string;
  /** The read-only folder the skill comes from. */
  sourceDir: string;
  /** A writable folder mirroring the skill's layout, holding the edited files. */
  overlayDir: string;
  store: RevisionStore;
  /** Where both folders are read and the overlay written (the local disk by default). */
  files?: WritableHost;
}

/** Result of an overlay write. */
export interface OverlayWrite {
  record: RevisionRecord;
  previousRef: VersionRef | null;
  ref: VersionRef;
}

/**
 * Edits of a read-only skill: writes go to the overlay folder (atomically) and are
 * recorded in the revision store; reads serve the overlay copy, else the source.
 * The first edit of a file also records the source content ({@link SEED_REASON}) so
 * every revision, including the original, can be restored.
 */
export class SkillOverlay {
  private readonly files: WritableHost;

  constructor(readonly options: SkillOverlayOptions) {
    this.files = options.files ?? localDisk;
  }

  /** Effective content of one file (see {@link resolveEffectiveFile}). */
  resolve(relPath: string): Promise<EffectiveFile | null> {
    return resolveEffectiveFile(this.options.sourceDir, this.options.overlayDir, relPath, this.files);
  }

  /** Every file of the skill as readers see it: source files plus files that exist only in the overlay. */
  async listFiles(): Promise<string[]> {
    const all = new Set([...(await listFilesUnder(this.files, this.options.sourceDir)), ...(await listFilesUnder(this.files, this.options.overlayDir))]);
    return [...all].sort();
  }

  /** True when the source file changed since it was seeded (e.g. the plugin was updated under the edits). */
  async sourceChangedSinceSeed(relPath: string): Promise<boolean> {
    const rel = normalizeRelativePath(relPath, 'file');
    const seed = (await this.options.store.history(this.options.skillId, rel)).find((r) => r.reason === SEED_REASON);
    if (!seed) return false;
    const now = await readIfFile(this.files, await resolveInsideReal(this.options.sourceDir, rel, 'file', this.files));
    return (now ? digestOf(now) : null) !== seed.digest;
  }

  /**
   * Writes a new version of `relPath` into the overlay. With `expectedRef`, refuses
   * (StaleRefError) when the effective content changed since that ref.
   */
  async write(relPath: string, content: string | Uint8Array, opts: { reason: string; expectedRef?: VersionRef }): Promise<OverlayWrite> {
    const { skillId, store, overlayDir } = this.options;
    const rel = normalizeRelativePath(relPath, 'file');
    const current = await this.resolve(rel);
    const previousRef = current?.ref ?? null;
    if (opts.expectedRef !== undefined && opts.expectedRef !== previousRef) {
      throw new StaleRefError(`${this.options.label ?? skillId}/${rel}`, opts.expectedRef, previousRef);
    }
    if (current?.origin === 'source' && (await store.latest(skillId, rel)) === undefined) {
      await store.append({ skillId, file: rel, content: current.content, reason: SEED_REASON, previousRef: null });
    }
    await this.files.writeFile(await resolveInsideReal(overlayDir, rel, 'file', this.files), content);
    const record = await store.append({ skillId, file: rel, content, reason: opts.reason, previousRef });
    return { record, previousRef, ref: digestOf(content) };
  }

  /** Restores revision `seq` into the overlay (recorded as a new revision). */
  restore(seq: number, reason?: string): Promise<RevisionRecord> {
    return this.options.store.restore(this.options.skillId, seq, this.options.overlayDir, reason);
  }
}
