import * as path from 'node:path';
import type { WritableHost } from '../host/fileWrites';
import { localDisk } from '../host/localDisk';
import { answerOrUndefined, asBuffer, type FileRead } from '../host/skillsHost';
import { formatBytes, UnreadableFileError } from '../os/readRegularFile';
import { EditError } from './editErrors';
import { normalizeRelativePath, resolveInsideReal } from './safePath';
import { digestOf, fileVersionRef, isVersionRef, refHex, type VersionRef } from './versionRef';

/**
 * One change to one file of a skill. `digest` is the sha256 of the content (null when
 * the change deleted the file); `ref` the version ref the change produced (the file's
 * digest unless the caller recorded another, e.g. the skill's ref); `previousRef` what
 * it replaced. Small contents are stored inline, larger ones as a content-addressed blob.
 */
export interface RevisionRecord {
  v: 1;
  /** 1-based position in the skill's log; use it to get or restore this revision. */
  seq: number;
  skillId: string;
  /** Path relative to the skill folder, forward slashes. */
  file: string;
  digest: VersionRef | null;
  ref: VersionRef | null;
  previousRef: VersionRef | null;
  reason: string;
  /** ISO 8601. */
  time: string;
  size: number;
  content?: { encoding: 'utf8' | 'base64'; data: string };
  blob?: string;
}

/** A log's last line was cut short (a crash during an append): it is ignored and removed by the next append. */
export interface TornTail {
  /** 1-based line number of the fragment. */
  line: number;
  bytes: number;
}

/** A complete line that is not a valid record (should never happen; reported, not fatal). */
export interface InvalidLine {
  line: number;
  error: string;
}

/** Everything read from one skill's log. */
export interface RevisionLog {
  skillId: string;
  records: RevisionRecord[];
  torn: TornTail | null;
  invalid: InvalidLine[];
  /** Bytes of the log up to the end of its last complete line. */
  validBytes: number;
}

/** Input of {@link RevisionStore.append}. */
export interface AppendInput {
  skillId: string;
  file: string;
  /** New content; null records a deletion. */
  content: string | Uint8Array | null;
  reason: string;
  /** Defaults to the content digest. */
  ref?: VersionRef | null;
  /** Defaults to the `ref` of the latest record for the same file (null if none). */
  previousRef?: VersionRef | null;
  time?: Date;
}

/** Options of {@link RevisionStore}. */
export interface RevisionStoreOptions {
  /** Contents up to this many bytes are kept inside the record; larger ones go to blobs/. Default 8 KiB. */
  inlineLimit?: number;
  /** Where the store reads and writes (and skills are restored): the local disk by default. */
  files?: WritableHost;
}

/** Most bytes of one log or blob the store reads: a log past it is refused with its size, not read into memory. */
const MAX_STORE_READ_BYTES = 256 * 1024 * 1024;

interface CacheEntry {
  size: number;
  nextSeq: number;
  latestRef: Map<string, VersionRef | null>;
}

/** Keeps ids like "plugin:pub.ext:pdf" usable as file names on every platform. */
function fileNameFor(skillId: string): string {
  return skillId.replace(/[^A-Za-z0-9_-]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`) + '.jsonl';
}

/**
 * Append-only revision history, one JSON-lines log per skill under `root/skills/`, with
 * large contents in `root/blobs/<sha256>`, read and written through a host (`files`). Every append is
 * durable before it answers (blob first, then the record; on the local disk, fsynced). Reading tolerates a torn
 * last line. Appends are serialised per skill: within a process by a queue, across processes sharing the store
 * (two VS Code windows over one global storage, the CLI) by the host's lock beside the log (a lock file on the
 * local disk), so no two records get one seq.
 */
export class RevisionStore {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly inlineLimit: number;
  private readonly files: WritableHost;

  constructor(
    readonly root: string,
    options: RevisionStoreOptions = {},
  ) {
    this.inlineLimit = options.inlineLimit ?? 8 * 1024;
    this.files = options.files ?? localDisk;
  }

  /** Path of a skill's log file. */
  logPath(skillId: string): string {
    return path.join(this.root, 'skills', fileNameFor(skillId));
  }

  private blobPath(hex: string): string {
    return path.join(this.root, 'blobs', hex);
  }

  /** Reads a skill's whole log. A missing log is an empty history. */
  async read(skillId: string): Promise<RevisionLog> {
    const log = this.logPath(skillId);
    const read = await this.readStored(log, (e) =>
      e.code === 'EFBIG'
        ? new EditError(
            'REVISION_CORRUPT',
            `The revision log ${log} is ${formatBytes(e.size)}, over the ${formatBytes(e.maxBytes)} the store reads (a log grows by a few KiB per edit, so this one was not made by edits alone). Move it aside to start a new history for ${skillId}; its lines stay readable as JSON.`,
          )
        : e,
    );
    if (!read) return { skillId, records: [], torn: null, invalid: [], validBytes: 0 };
    return parseLog(skillId, asBuffer(read.bytes));
  }

  /**
   * One of the store's files (a log or a blob), at most {@link MAX_STORE_READ_BYTES}; undefined when missing. A file
   * the host refuses to read (too large, not a regular file) throws what `refused` makes of it.
   */
  private async readStored(file: string, refused: (e: UnreadableFileError) => Error): Promise<FileRead | undefined> {
    return Promise.resolve()
      .then(() => this.files.readFile(file, { maxBytes: MAX_STORE_READ_BYTES }))
      .catch((e: unknown) => {
        throw e instanceof UnreadableFileError ? refused(e) : e;
      });
  }

  /** The records of a skill (optionally of one file), oldest first. */
  async history(skillId: string, file?: string): Promise<RevisionRecord[]> {
    const { records } = await this.read(skillId);
    const rel = file === undefined ? undefined : normalizeRelativePath(file, 'file');
    return rel === undefined ? records : records.filter((r) => r.file === rel);
  }

  /** One record by its seq; throws REVISION_NOT_FOUND (listing the range) when absent. */
  async get(skillId: string, seq: number): Promise<RevisionRecord> {
    const { records } = await this.read(skillId);
    const found = records.find((r) => r.seq === seq);
    if (!found) {
      const range = records.length ? `revisions 1-${records[records.length - 1].seq}` : 'no revisions';
      throw new EditError('REVISION_NOT_FOUND', `Skill ${skillId} has no revision ${seq} (it has ${range}); list the history (runSkill inspect with history) and pick one.`);
    }
    return found;
  }

  /** The latest record for a file, or undefined when the file has no history. */
  async latest(skillId: string, file: string): Promise<RevisionRecord | undefined> {
    const h = await this.history(skillId, file);
    return h[h.length - 1];
  }

  /** The content a record points to (null for a deletion), checked against its digest. */
  async content(record: RevisionRecord): Promise<Buffer | null> {
    if (record.digest === null) return null;
    let data: Buffer;
    if (record.content) data = Buffer.from(record.content.data, record.content.encoding);
    else if (record.blob) {
      const blob = this.blobPath(record.blob);
      const damaged = (what: string) =>
        new EditError('REVISION_CORRUPT', `Revision ${record.seq} of ${record.skillId} (${record.file}): its content ${blob} ${what}, so it cannot be restored. Restore another revision (list them with runSkill inspect and history: true); the others are intact.`);
      const read = await this.readStored(blob, (e) => damaged(e.code === 'EFBIG' ? `is ${formatBytes(e.size)}, over the ${formatBytes(e.maxBytes)} the store reads` : `is a ${e.kind}, not a file`));
      if (!read) throw damaged('is missing');
      data = asBuffer(read.bytes);
    }
    else throw new EditError('REVISION_CORRUPT', `Revision ${record.seq} of ${record.skillId} (${record.file}) has neither content nor blob.`);
    if (digestOf(data) !== record.digest) {
      throw new EditError('REVISION_CORRUPT', `Revision ${record.seq} of ${record.skillId} (${record.file}): stored content does not match digest ${record.digest}; the revision store under ${this.root} is damaged.`);
    }
    return data;
  }

  /** Records a change. The content (or blob) is durable before this resolves. */
  append(input: AppendInput): Promise<RevisionRecord> {
    const prev = this.queues.get(input.skillId) ?? Promise.resolve();
    const next = prev.catch(() => undefined).then(() => this.doAppend(input));
    this.queues.set(input.skillId, next);
    return next;
  }

  private async doAppend(input: AppendInput): Promise<RevisionRecord> {
    const logFile = this.logPath(input.skillId);
    await this.files.mkdir(path.dirname(logFile));
    return this.files.withLock(`${logFile}.lock`, () => this.appendLocked(input, logFile));
  }

  private async appendLocked(input: AppendInput, logFile: string): Promise<RevisionRecord> {
    const file = normalizeRelativePath(input.file, 'file');
    const state = await this.state(input.skillId);
    const data = input.content === null ? null : typeof input.content === 'string' ? Buffer.from(input.content, 'utf8') : Buffer.from(input.content);
    const digest = data ? digestOf(data) : null;
    const record: RevisionRecord = {
      v: 1,
      seq: state.nextSeq,
      skillId: input.skillId,
      file,
      digest,
      ref: input.ref === undefined ? digest : input.ref,
      previousRef: input.previousRef === undefined ? (state.latestRef.get(file) ?? null) : input.previousRef,
      reason: input.reason,
      time: (input.time ?? new Date()).toISOString(),
      size: data?.length ?? 0,
    };
    if (data && digest) {
      if (data.length <= this.inlineLimit) {
        const asText = data.toString('utf8');
        record.content = Buffer.from(asText, 'utf8').equals(data) ? { encoding: 'utf8', data: asText } : { encoding: 'base64', data: data.toString('base64') };
      } else {
        record.blob = refHex(digest);
        const blob = this.blobPath(record.blob);
        if ((await fileVersionRef(blob, this.files)) !== digest) await this.files.writeFile(blob, data);
      }
    }
    const line = Buffer.from(JSON.stringify(record) + '\n', 'utf8');
    await this.files.appendFile(logFile, line, { durable: true });
    state.size += line.length;
    state.nextSeq++;
    state.latestRef.set(file, record.ref);
    return record;
  }

  /** Cached log state; re-read (and torn tail removed) when the log changed behind our back. */
  private async state(skillId: string): Promise<CacheEntry> {
    const logFile = this.logPath(skillId);
    const size = (await answerOrUndefined(() => this.files.stat(logFile)))?.size ?? -1;
    const cached = this.cache.get(skillId);
    if (cached && cached.size === size) return cached;
    const log = await this.read(skillId);
    if (log.torn) {
      // drop the fragment so the next record starts on a line of its own
      await this.files.truncate(logFile, log.validBytes);
    }
    const latestRef = new Map<string, VersionRef | null>();
    for (const r of log.records) latestRef.set(r.file, r.ref);
    const entry: CacheEntry = { size: log.validBytes, nextSeq: (log.records[log.records.length - 1]?.seq ?? 0) + 1, latestRef };
    this.cache.set(skillId, entry);
    return entry;
  }

  /**
   * Restores revision `seq` into `skillDir` (an atomic write, or a delete when the revision
   * was a deletion) and records that as a new revision whose previousRef is what was on
   * disk. Returns the new record.
   */
  async restore(skillId: string, seq: number, skillDir: string, reason?: string): Promise<RevisionRecord> {
    const record = await this.get(skillId, seq);
    const content = await this.content(record);
    const target = await resolveInsideReal(skillDir, record.file, 'file', this.files);
    const currentRef = await fileVersionRef(target, this.files);
    if (content === null) await this.files.remove(target);
    else await this.files.writeFile(target, content);
    return this.append({
      skillId,
      file: record.file,
      content,
      reason: reason ?? `restore revision ${seq}${record.reason ? ` (${record.reason})` : ''}`,
      previousRef: currentRef,
    });
  }
}

/** Parses log bytes; exported for tools that inspect a copied log. */
export function parseLog(skillId: string, data: Buffer): RevisionLog {
  const records: RevisionRecord[] = [];
  const invalid: InvalidLine[] = [];
  let start = 0;
  let line = 0;
  while (start < data.length) {
    const nl = data.indexOf(0x0a, start);
    line++;
    if (nl < 0) {
      return { skillId, records, invalid, torn: { line, bytes: data.length - start }, validBytes: start };
    }
    const text = data.subarray(start, nl).toString('utf8');
    start = nl + 1;
    if (text.trim() === '') continue;
    try {
      const value: unknown = JSON.parse(text);
      const problem = recordProblem(value);
      if (problem) invalid.push({ line, error: problem });
      else records.push(value as RevisionRecord);
    } catch (err) {
      invalid.push({ line, error: (err as Error).message });
    }
  }
  return { skillId, records, invalid, torn: null, validBytes: data.length };
}

const isRefOrNull = (v: unknown): boolean => v === null || isVersionRef(v);

/**
 * Checks one parsed log line against {@link RevisionRecord}; returns what is wrong or
 * undefined. Hand-written rather than zod: the log is this module's own output and the
 * check keeps the writer light enough to start fast (see the crash test).
 */
export function recordProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'not a JSON object';
  const r = value as Record<string, unknown>;
  if (r.v !== 1) return 'v: expected 1';
  if (!Number.isInteger(r.seq) || (r.seq as number) < 1) return 'seq: expected a positive integer';
  for (const key of ['skillId', 'file', 'reason', 'time'] as const) if (typeof r[key] !== 'string') return `${key}: expected a string`;
  for (const key of ['digest', 'ref', 'previousRef'] as const) if (!isRefOrNull(r[key])) return `${key}: expected a sha256 ref or null`;
  if (!Number.isInteger(r.size) || (r.size as number) < 0) return 'size: expected a non-negative integer';
  const c = r.content as Record<string, unknown> | undefined;
  if (c !== undefined && (typeof c !== 'object' || c === null || (c.encoding !== 'utf8' && c.encoding !== 'base64') || typeof c.data !== 'string')) return 'content: expected { encoding, data }';
  if (r.blob !== undefined && (typeof r.blob !== 'string' || !/^[0-9a-f]{64}$/.test(r.blob))) return 'blob: expected 64 hex digits';
  if (r.digest !== null && c === undefined && r.blob === undefined) return 'content or blob is required when digest is set';
  return undefined;
}
