import { createWriteStream, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { PackError } from './packErrors';

/** Limits applied while extracting a pack; sizes count the bytes actually inflated, not what headers claim. */
export interface ExtractLimits {
  /** Total uncompressed bytes of all files. Default 100 MiB. */
  maxTotalBytes: number;
  /** Uncompressed bytes of one file. Default 20 MiB. */
  maxFileBytes: number;
  /** Entries (files and folders). Default 5000. */
  maxEntries: number;
}

/** Default {@link ExtractLimits}. */
export const DEFAULT_LIMITS: ExtractLimits = { maxTotalBytes: 100 * 1024 * 1024, maxFileBytes: 20 * 1024 * 1024, maxEntries: 5000 };

/** What to do with symlink and hardlink entries: refuse the whole archive (default) or skip them and report. */
export type LinkPolicy = 'refuse' | 'skip';

/** An entry that was not extracted, and why. */
export interface SkippedEntry {
  path: string;
  reason: string;
}

/** Counters and report of one extraction. */
export interface ExtractReport {
  files: number;
  directories: number;
  bytes: number;
  skipped: SkippedEntry[];
}

/**
 * Checks an archive entry name and returns it as a safe relative path (forward slashes,
 * no "." segments), or null for the root itself. Refuses absolute paths, drive letters,
 * UNC paths, ".." segments and NUL bytes.
 */
export function safeEntryPath(name: string): string | null {
  const unified = name.replace(/\\/g, '/');
  const label = JSON.stringify(name);
  if (unified.includes('\0')) throw new PackError('UNSAFE_ENTRY', `Archive entry ${label} contains a NUL byte; the pack was refused.`, [name]);
  if (unified.startsWith('/') || /^[a-zA-Z]:/.test(unified)) {
    throw new PackError('UNSAFE_ENTRY', `Archive entry ${label} has an absolute path; a pack may only contain relative paths. The pack was refused and nothing was extracted.`, [name]);
  }
  const parts = unified.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) {
    throw new PackError('UNSAFE_ENTRY', `Archive entry ${label} points outside the pack (".." segment). The pack was refused and nothing was extracted.`, [name]);
  }
  return parts.length ? parts.join('/') : null;
}

/** Tracks limits across one extraction into `dest`, and writes entries there. */
export class ExtractSink {
  readonly report: ExtractReport = { files: 0, directories: 0, bytes: 0, skipped: [] };
  private entries = 0;
  /** Every path extracted so far, with the entry name that claimed it and what it is. */
  private readonly claimed = new Map<string, { name: string; kind: 'file' | 'directory' }>();

  constructor(
    readonly dest: string,
    readonly limits: ExtractLimits,
    readonly links: LinkPolicy,
  ) {}

  private full(rel: string): string {
    const full = path.resolve(this.dest, ...rel.split('/'));
    if (!full.startsWith(path.resolve(this.dest) + path.sep)) throw new PackError('UNSAFE_ENTRY', `Archive entry "${rel}" resolves outside the pack.`, [rel]);
    return full;
  }

  /** Counts an entry against maxEntries. */
  countEntry(name: string): void {
    if (++this.entries > this.limits.maxEntries) {
      throw new PackError('LIMIT_EXCEEDED', `The pack has more than ${this.limits.maxEntries} entries (limit maxEntries, reached at "${name}"); it was refused.`, [name]);
    }
  }

  /**
   * Claims `rel` for one entry, before anything is written for it. Two file entries for one path (also
   * spelled differently, `a/b` and `./a//b`) are refused: extractors disagree on which one wins (we kept the
   * first, common tools show the last), so what was reviewed need not be what runs. A folder listed twice is
   * harmless; a file and a folder of one path are refused too.
   */
  claim(rel: string, name: string, kind: 'file' | 'directory'): void {
    const before = this.claimed.get(rel);
    if (!before) {
      this.claimed.set(rel, { name, kind });
      return;
    }
    if (before.kind === 'directory' && kind === 'directory') return;
    const names = before.name === name ? `Archive has two entries named ${JSON.stringify(name)}` : `Archive entries ${JSON.stringify(before.name)} and ${JSON.stringify(name)} both extract to "${rel}"`;
    throw new PackError(
      'DUPLICATE_ENTRY',
      `${names}; extraction tools disagree on which one wins, so the pack was refused and nothing was extracted. Rebuild the archive with each path once.`,
      [before.name, name],
    );
  }

  /** Refuses or skips a link entry, per policy. */
  link(name: string, kind: 'symlink' | 'hardlink', target: string | undefined): void {
    const reason = `${kind}${target ? ` to ${JSON.stringify(target)}` : ''}`;
    if (this.links === 'refuse') {
      throw new PackError('LINK_ENTRY', `Archive entry "${name}" is a ${reason}; packs may not contain links. The pack was refused and nothing was extracted.`, [name]);
    }
    this.report.skipped.push({ path: name, reason: `${reason} (links are never extracted)` });
  }

  /** Checks a size announced by a header (cheap early refusal; actual bytes are still counted). */
  checkDeclaredSize(name: string, size: number): void {
    if (size > this.limits.maxFileBytes) throw this.tooBig(name, 'maxFileBytes', this.limits.maxFileBytes);
  }

  private tooBig(name: string, limit: string, value: number): PackError {
    return new PackError('LIMIT_EXCEEDED', `Archive entry "${name}" inflates past the ${limit} limit of ${value} bytes; the pack was refused (possible zip bomb).`, [name]);
  }

  async directory(rel: string): Promise<void> {
    await fs.mkdir(this.full(rel), { recursive: true });
    this.report.directories++;
  }

  /**
   * Streams one file into place, counting inflated bytes against the per-file and total
   * limits. On a limit the source is destroyed at once (no more inflating) and the
   * partial file is left for the caller to discard with the whole temp folder.
   */
  async file(rel: string, data: EntryStream, mode: number): Promise<void> {
    // Listen for errors before the first await: an opened entry starts inflating at once (a zip entry that lies
    // about its size fails while the folder is being made), and a stream that fails with no listener would
    // crash the process instead of refusing the pack.
    let early: Error | undefined;
    const onEarly = (err: Error): void => {
      early ??= err;
    };
    data.on('error', onEarly);
    const target = this.full(rel);
    try {
      await fs.mkdir(path.dirname(target), { recursive: true });
    } finally {
      data.removeListener('error', onEarly);
    }
    if (early) {
      data.destroy();
      throw early;
    }
    // 'wx': a duplicate entry is an error, and nothing pre-existing is ever followed or overwritten
    const out = createWriteStream(target, { flags: 'wx', mode: mode & 0o111 ? 0o755 : 0o644 });
    let fileBytes = 0;
    await new Promise<void>((resolve, reject) => {
      let settled = false;
      const failWith = (err: Error): void => {
        if (settled) return;
        settled = true;
        data.destroy();
        out.destroy();
        reject(err);
      };
      out.on('error', failWith);
      data.on('error', failWith);
      data.on('data', (chunk: Buffer) => {
        if (settled) return;
        fileBytes += chunk.length;
        this.report.bytes += chunk.length;
        if (fileBytes > this.limits.maxFileBytes) return failWith(this.tooBig(rel, 'maxFileBytes', this.limits.maxFileBytes));
        if (this.report.bytes > this.limits.maxTotalBytes) return failWith(this.tooBig(rel, 'maxTotalBytes', this.limits.maxTotalBytes));
        if (!out.write(chunk)) {
          data.pause();
          out.once('drain', () => data.resume());
        }
      });
      data.on('end', () => {
        if (settled) return;
        settled = true;
        out.end(() => resolve());
      });
    });
    this.report.files++;
  }
}

/** The part of a readable stream (node or minipass) that {@link ExtractSink.file} uses. */
export interface EntryStream {
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
  removeListener(event: 'error', listener: (err: Error) => void): unknown;
  pause(): unknown;
  resume(): unknown;
  destroy(): unknown;
}
