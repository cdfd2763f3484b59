import * as path from 'node:path';
import type { WritableHost } from '../host/fileWrites';
import { localDisk } from '../host/localDisk';
import { answerOrUndefined, asBuffer, type SkillsHost } from '../host/skillsHost';

/** One audited action, written as one JSON line. */
export interface AuditEntry {
  /** ISO time the action started. */
  time: string;
  session: string;
  /** The skill acted on (absent e.g. for an unload of nothing or an artifact read). */
  skill?: string;
  digest?: string;
  action: 'load' | 'unload' | 'read' | 'run_script' | 'list_docs' | 'select_docs' | string;
  /** The tool input as the model gave it. */
  arguments: unknown;
  /** `ok`, `error:<code>`, `cancelled` for a run its caller stopped, or `timed_out` for a run killed at its timeout (the exit code is in `details`). */
  outcome: string;
  duration_ms: number;
  /** Extra facts, e.g. the exit code and timeout of a run. */
  details?: Record<string, unknown>;
}

/** Options of the audit log. */
export interface AuditLogOptions {
  /** The JSON-lines file, e.g. `<stateDir>/audit.jsonl`. */
  file: string;
  /** Rotate when the file would pass this size (default 5 MiB). */
  maxBytes?: number;
  /** Rotated files kept: `audit.jsonl.1` (newest) .. `.N` (default 3). */
  keep?: number;
  /** Where the log is written: the core's host (an in-memory host keeps the log in memory); default the disk. */
  files?: WritableHost;
  /** Told of every entry as it is queued (env values already redacted): e.g. to keep a session's trail elsewhere too. */
  onAppend?: (entry: AuditEntry) => void;
}

/**
 * An append-only JSON-lines log that rotates by size: when the next line would pass `maxBytes`,
 * `file` becomes `file.1`, `file.1` becomes `file.2`, ... and the oldest beyond `keep` is deleted.
 * Appends are queued in order and never block the caller; `flush()` waits for them.
 */
export class AuditLog {
  private queue: Promise<void> = Promise.resolve();
  private size: number | undefined;
  private readonly maxBytes: number;
  private readonly keep: number;
  private readonly files: WritableHost;
  /** The last write error, if any (the log never throws into the tools). */
  lastError: Error | undefined;

  constructor(private readonly options: AuditLogOptions) {
    this.maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
    this.keep = Math.max(0, options.keep ?? 3);
    this.files = options.files ?? localDisk;
  }

  get file(): string {
    return this.options.file;
  }

  /** Queues one line. Values of `env` maps in the arguments are redacted (keys kept): they often hold secrets. */
  append(entry: AuditEntry): void {
    const redacted = { ...entry, arguments: redactEnv(entry.arguments) };
    this.options.onAppend?.(redacted);
    const line = `${JSON.stringify(redacted)}\n`;
    this.queue = this.queue.then(() => this.write(line)).catch((e: Error) => {
      this.lastError = e;
    });
  }

  /** Resolves when every queued line is written (on disk for the Node host). */
  flush(): Promise<void> {
    return this.queue;
  }

  private async write(line: string): Promise<void> {
    const file = this.options.file;
    if (this.size === undefined) {
      await this.files.mkdir(path.dirname(file));
      // A stat that fails for another reason than a missing file counts as empty, as before: the append will say.
      this.size = (await answerOrUndefined(() => this.files.stat(file)))?.size ?? 0;
    }
    const bytes = Buffer.byteLength(line);
    if (this.size > 0 && this.size + bytes > this.maxBytes) {
      await this.rotate();
      this.size = 0;
    }
    await this.files.appendFile(file, line);
    this.size += bytes;
  }

  private async rotate(): Promise<void> {
    const file = this.options.file;
    if (this.keep === 0) {
      await this.files.remove(file);
      return;
    }
    await this.files.remove(`${file}.${this.keep}`);
    for (let i = this.keep - 1; i >= 1; i--) {
      // A gap in the numbering (a rotated file removed by hand) is skipped.
      await answerOrUndefined(() => this.files.rename(`${file}.${i}`, `${file}.${i + 1}`));
    }
    await this.files.rename(file, `${file}.1`);
  }
}

/**
 * The most bytes {@link readAuditFile} reads of one file by default: far above the default rotation size (5 MiB)
 * plus the one line that may pass it; a log rotated at a larger `maxBytes` is read with a larger limit.
 */
export const MAX_AUDIT_FILE_BYTES = 64 * 1024 * 1024;

/**
 * Reads the entries of one audit file (current or rotated) through `files` (default the disk), skipping lines that
 * do not parse. A missing file has none; a file over `maxBytes`, or one that cannot be read, throws (its entries are
 * not silently dropped).
 */
export async function readAuditFile(file: string, files: SkillsHost = localDisk, maxBytes = MAX_AUDIT_FILE_BYTES): Promise<AuditEntry[]> {
  const read = await files.readFile(file, { maxBytes });
  const text = read ? asBuffer(read.bytes).toString('utf8') : '';
  const out: AuditEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line) as AuditEntry);
    } catch {
      // A torn last line after a crash: skip it.
    }
  }
  return out;
}

/** The marker that stands for a redacted environment value in the log. */
export const REDACTED = '<redacted>';

/** The marker that stands for arguments nested deeper than {@link MAX_AUDIT_DEPTH} in the log. */
export const TOO_DEEP = '<nested too deep>';
/** Nesting kept of a call's arguments: no tool's input goes deeper, and a caller's deeper value is not recursed into. */
export const MAX_AUDIT_DEPTH = 32;

/**
 * A copy of tool arguments with the values of every `env` object replaced by {@link REDACTED}, and anything nested
 * deeper than {@link MAX_AUDIT_DEPTH} by {@link TOO_DEEP}: a caller's arguments nested 400,000 deep (800 KB of
 * brackets) overflowed the stack here, so the call failed inside the server and left no audit line.
 */
export function redactEnv(args: unknown, depth = 0): unknown {
  if (!args || typeof args !== 'object') return args;
  if (depth >= MAX_AUDIT_DEPTH) return TOO_DEEP;
  if (Array.isArray(args)) return args.map((v) => redactEnv(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args as Record<string, unknown>)) {
    out[k] = k === 'env' && v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.keys(v).map((key) => [key, REDACTED])) : redactEnv(v, depth + 1);
  }
  return out;
}
