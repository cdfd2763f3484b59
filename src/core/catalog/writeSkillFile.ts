import { renderLineDiff, unifiedDiffOf } from '../edit/lineDiff';
import { SEED_REASON } from '../edit/overlay';
import type { RevisionRecord } from '../edit/revisionStore';
import { resolveInsideReal } from '../edit/safePath';
import { digestOf, type VersionRef } from '../edit/versionRef';
import type { SkillDiagnostic } from '../skill/skillTypes';
import { ToolError } from '../tools/toolError';
import { isText } from './chunking';
import type { SkillCatalog } from './skillCatalog';
import type { CatalogEntry } from './catalogTypes';
import { validateProposed } from './validateProposed';

/** A revision as tool results show it: the record's fields without the skill, the digest and the content. */
export type RevisionSummary = Pick<RevisionRecord, 'seq' | 'file' | 'ref' | 'previousRef' | 'reason' | 'time' | 'size'>;

/** The result of every updateSkill write (and of its dry run). */
export interface WriteOutcome {
  skillId: string;
  file: string;
  dryRun: boolean;
  /** False for a dry run, or when the content did not change. */
  written: boolean;
  /** `source` for workspace and user skills, `overlay` for plugin and pack skills. */
  target: 'source' | 'overlay';
  previousRef: VersionRef | null;
  /** The file's ref after the write (what it would be, for a dry run): pass it as expectedVersionRef next time. */
  versionRef: VersionRef;
  /** Line-numbered diff of the change. */
  diff: string;
  added: number;
  removed: number;
  /** Diagnostics of the skill after the change (lenient validation). */
  diagnostics: SkillDiagnostic[];
  warnings: string[];
  /** The revision recorded for this write. */
  revision?: RevisionSummary;
}

/** Input of {@link writeSkillFile}. */
export interface WriteRequest {
  entry: CatalogEntry;
  /** Relative path of the file inside the skill. */
  file: string;
  /** The new text from the current one (null when the file does not exist yet). May throw. */
  produce(current: string | null): { text: string; warnings?: string[] };
  expectedVersionRef?: VersionRef;
  dryRun?: boolean;
  /** Write even when validation finds new errors (they become warnings). */
  force?: boolean;
  reason: string;
}

/** A compact view of a revision record. */
export function summarize(r: RevisionRecord): RevisionSummary {
  return { seq: r.seq, file: r.file, ref: r.ref, previousRef: r.previousRef, reason: r.reason, time: r.time, size: r.size };
}

const queues = new Map<string, Promise<unknown>>();

/** Runs `job` after every earlier write to the same skill in this process. */
export function serializeBySkill<T>(skillId: string, job: () => Promise<T>): Promise<T> {
  const prev = queues.get(skillId) ?? Promise.resolve();
  const run = prev.then(job, job);
  queues.set(skillId, run.catch(() => undefined));
  return run;
}

/** Text the catalog has served, by ref, so a stale edit can be shown the diff between its version and the current one. */
const seen = new Map<string, string>();
const SEEN_MAX = 64;

/** Remembers content served to a caller (inspect) under its ref. */
export function rememberContent(ref: string, text: string): void {
  if (text.length > 4 * 1024 * 1024) return;
  seen.delete(ref);
  seen.set(ref, text);
  while (seen.size > SEEN_MAX) seen.delete(seen.keys().next().value as string);
}

async function contentOfRef(catalog: SkillCatalog, skillId: string, file: string, ref: string): Promise<string | undefined> {
  const known = seen.get(ref);
  if (known !== undefined) return known;
  const records = await catalog.store.history(skillId, file);
  const hit = [...records].reverse().find((r) => r.digest === ref);
  const buf = hit ? await catalog.store.content(hit).catch(() => null) : null;
  return buf ? buf.toString('utf8') : undefined;
}

/** Throws the stale-ref error: names the current ref and shows what changed since the caller's version when it is known. */
async function staleError(catalog: SkillCatalog, entry: CatalogEntry, file: string, expected: string, currentRef: string | null, current: string | null): Promise<ToolError> {
  const before = await contentOfRef(catalog, catalog.historyKey(entry), file, expected);
  const diffSinceExpected = before !== undefined && current !== null ? unifiedDiffOf(before, current, file) : undefined;
  return new ToolError('stale_ref',
    `${entry.id}/${file} changed since version ${expected}: it is now ${currentRef ?? 'missing'}. ` +
      (diffSinceExpected ? `What changed since your version:\n${diffSinceExpected}\n` : '') +
      'Re-read it (runSkill inspect) and redo the edit against the current content, passing the current ref as expectedVersionRef.',
    undefined,
    { expectedRef: expected, currentRef, ...(diffSinceExpected ? { diffSinceExpected } : {}) },
  );
}

/**
 * The one write path of updateSkill: reads the effective file, checks `expectedVersionRef`, produces the new
 * text, validates the skill as it would be (refusing new errors unless `force`), and — unless a dry run —
 * records any edit made on disk since the last revision, writes atomically (to the skill folder, or to the
 * overlay for plugin and pack skills) and appends a revision.
 */
export function writeSkillFile(catalog: SkillCatalog, req: WriteRequest): Promise<WriteOutcome> {
  return serializeBySkill(req.entry.id, async () => {
    const { entry } = req;
    const overlay = entry.writableAtSource ? undefined : catalog.overlayOf(entry);
    const currentFile = await catalog.readFile(entry, req.file);
    const file = currentFile?.path ?? req.file.replace(/\\/g, '/');
    if (currentFile && !isText(currentFile.content)) {
      throw new ToolError('not_text', `${entry.id}/${file} is not a UTF-8 text file; updateSkill edits text files only.`);
    }
    const current = currentFile ? currentFile.content.toString('utf8') : null;
    const currentRef = currentFile?.ref ?? null;
    if (req.expectedVersionRef !== undefined && req.expectedVersionRef !== currentRef) {
      throw await staleError(catalog, entry, file, req.expectedVersionRef, currentRef, current);
    }
    const produced = req.produce(current);
    const text = produced.text;
    const warnings = [...(produced.warnings ?? [])];
    const diff = renderLineDiff(current ?? '', text);
    const checked = await validateProposed({ skillDir: entry.skillDir, overlayDir: overlay?.options.overlayDir, files: new Map([[file, text]]), host: catalog.host });
    if (checked.newErrors.length) {
      const list = checked.newErrors.map((d) => `- ${d.rule} (${d.file ?? 'SKILL.md'} line ${d.range.start.line + 1}): ${d.message}`).join('\n');
      if (!req.force) {
        throw new ToolError('invalid_result',
          `The change to ${entry.id}/${file} would make the skill invalid, so nothing was written:\n${list}\nFix the edit, or pass force: true to write it anyway.`,
          undefined,
          { diagnostics: checked.diagnostics, diff: diff.text },
        );
      }
      warnings.push(`Written although it makes the skill invalid (force):\n${list}`);
    }
    const versionRef = digestOf(text);
    const base: WriteOutcome = {
      skillId: entry.id,
      file,
      dryRun: req.dryRun === true,
      written: false,
      target: overlay ? 'overlay' : 'source',
      previousRef: currentRef,
      versionRef,
      diff: diff.text,
      added: diff.added,
      removed: diff.removed,
      diagnostics: checked.diagnostics,
      warnings,
    };
    if (req.dryRun || (current !== null && text === current)) return base;

    // Edits on disk that did not go through updateSkill become revisions of their own, so history stays complete.
    const key = catalog.historyKey(entry);
    const latest = await catalog.store.latest(key, file);
    if (!latest && current !== null) {
      await catalog.store.append({ skillId: key, file, content: current, reason: SEED_REASON, previousRef: null });
    } else if (latest && latest.ref !== currentRef) {
      const rec = await catalog.store.append({ skillId: key, file, content: current, reason: 'edit on disk noticed (not made through updateSkill)', previousRef: latest.ref });
      warnings.push(`${file} was changed on disk since revision ${latest.seq}; that version was recorded as revision ${rec.seq} before this edit.`);
    }
    const again = await catalog.readFile(entry, file);
    if ((again?.ref ?? null) !== currentRef) throw await staleError(catalog, entry, file, currentRef ?? 'missing', again?.ref ?? null, again ? again.content.toString('utf8') : null);

    let record: RevisionRecord;
    if (overlay) {
      record = (await overlay.write(file, text, { reason: req.reason, expectedRef: currentRef ?? undefined })).record;
    } else {
      await catalog.host.writeFile(await resolveInsideReal(entry.skillDir, file, 'file', catalog.host), text);
      record = await catalog.store.append({ skillId: key, file, content: text, reason: req.reason, previousRef: currentRef });
    }
    await catalog.refreshSkill(entry);
    return { ...base, written: true, revision: summarize(record) };
  });
}
