/** A value now or later: a host may answer synchronously (fast local disk) or asynchronously. */
export type MaybePromise<T> = T | Promise<T>;

/** One entry of a folder listing. */
export interface DirEntry {
  name: string;
  /** `symlink` when the entry is a link whose target was not resolved by the listing. */
  kind: 'file' | 'directory' | 'symlink' | 'other';
}

/** What the registry needs to know about a file to skip it when unchanged. */
export interface FileStamp {
  mtimeMs: number;
  size: number;
  /** The file's inode where the host has one: tells a file replaced by another of the same size and mtime. */
  ino?: number;
  /** The device of `ino`: together they name a file whatever path reached it. */
  dev?: number;
  /** Permission bits (and type, as in `stat(2)`) where the host has them: what a copy of the file keeps. */
  mode?: number;
}

/** A whole file read together with the stamp of the bytes read. */
export interface FileRead extends FileStamp {
  bytes: Uint8Array;
}

/**
 * The core's file access, so tests and other front ends can supply their own (like the `IWorkspace`
 * of a language service): the Node hosts in `nodeHost.ts`, an in-memory one in `memoryHost.ts`. Each method answers `undefined` for a missing path instead of throwing; other
 * failures (permissions, I/O errors) may throw and become a diagnostic on the skill concerned.
 * Answers may be synchronous: the registry slices its work so that it still yields to the event loop.
 */
export interface SkillsHost {
  /** Lists a folder; `undefined` when it does not exist or is not a folder. */
  readDirectory(dir: string): MaybePromise<DirEntry[] | undefined>;
  /**
   * Stamps a file; `undefined` when it does not exist or is not a regular file. `folders`: a folder is stamped too
   * (its mtime moves when an entry is added, removed or renamed), for callers that watch a folder's listing.
   */
  stat(file: string, options?: { folders?: boolean }): MaybePromise<FileStamp | undefined>;
  /**
   * Reads a regular file with its stamp; `undefined` when it does not exist. A FIFO, device or folder, or a
   * file over the size limit, throws (an `UnreadableFileError` from the Node hosts) without blocking or
   * reading it: the skill is listed as broken with that message, the others are unaffected.
   */
  readFile(file: string, options?: ReadOptions): MaybePromise<FileRead | undefined>;
  /**
   * What is at `p`, symbolic links followed; `undefined` when nothing is there, a link dangles, or `p` cannot be
   * looked at. Never throws. `noFollow`: what `p` itself is, a link being `other` (a dangling one included).
   */
  kind(p: string, options?: { noFollow?: boolean }): MaybePromise<PathKind | undefined>;
  /** `p` with every symbolic link resolved; `undefined` when it does not exist or cannot be resolved. Never throws. */
  realPath(p: string): MaybePromise<string | undefined>;
  /**
   * True when the host's paths are this machine's files (the Node hosts, and hosts built on them): a child
   * process, a symbolic link and the disk's own tools see what the host reads. Absent for a host that keeps its
   * files elsewhere (in memory, remote): what must reach a process is copied out of it.
   */
  readonly local?: boolean;
  /**
   * A result computed from the files under `root` (a walk of a skill folder), kept by a host that caches what it
   * reads (the language server's, until a file under `root` changes) and given again while `input` (what else the
   * result depends on) is the same; one result per `root` and `name`. Hosts that do not cache leave this out, and the
   * result is computed on every call ({@link remembered}).
   */
  remember?<T>(root: string, name: string, input: string, compute: () => Promise<T>): Promise<T>;
}

/** {@link SkillsHost.remember} when the host keeps results, else `compute()`. */
export function remembered<T>(host: Pick<SkillsHost, 'remember'>, root: string, name: string, input: string, compute: () => Promise<T>): Promise<T> {
  return host.remember ? host.remember(root, name, input, compute) : compute();
}

/** What a path names once symbolic links are followed. */
export type PathKind = 'file' | 'directory' | 'other';

/**
 * A host that answers at once (the Node host, the in-memory host): what a synchronous caller such as the
 * language server's request handlers needs. Every such host is also a {@link SkillsHost}.
 */
export type SyncSkillsHost = {
  [K in keyof SkillsHost as K extends 'remember' ? never : K]: SkillsHost[K] extends ((...args: infer A) => MaybePromise<infer R>) | undefined ? (...args: A) => R : SkillsHost[K];
};

/** How {@link SkillsHost.readFile} opens a file. */
export interface ReadOptions {
  /**
   * Refuse a symbolic link as the last part of the path (errno `ELOOP`) instead of following it, so a caller that
   * must hold files inside a folder checks only links (an Agent Plugin's skills) and plain files cost nothing more.
   */
  noFollow?: boolean;
  /** Most bytes read; a larger file throws (default: the SKILL.md limit, 16 MiB). */
  maxBytes?: number;
  /**
   * The caller can do without the stamp for now: a host may then read a small regular file without asking its
   * stamp (one system call fewer per file) and answer `mtimeMs: NaN`; the size is the number of bytes read. A
   * caller that later needs to know whether the file changed compares its content once (see the registry's rescan).
   */
  stampless?: boolean;
  /**
   * Read only `length` bytes from `offset` (fewer at the end of the file): a page of a file of any size (the read
   * tool's paging). `size` is then the whole file's size, and `maxBytes` does not apply.
   */
  range?: { offset: number; length: number };
}


/**
 * What a host call answers, or undefined when it fails. A host that answers at once also fails at once (it throws
 * rather than rejects): the call is made inside the promise chain so both are caught.
 */
export function answerOrUndefined<T>(call: () => MaybePromise<T>): Promise<T | undefined> {
  return Promise.resolve().then(call).catch(() => undefined);
}

/**
 * A host's stamp of `p` when it answers at once: `undefined` when no file (or, with `folders`, folder) is there,
 * `null` when the stat itself fails (a permission or I/O error), so nothing is known about `p` and a caller keeping
 * what it read by stamp must not keep it.
 */
export function stampOrNull(host: Pick<SyncSkillsHost, 'stat'>, p: string, options?: { folders?: boolean }): FileStamp | undefined | null {
  try {
    return host.stat(p, options);
  } catch {
    return null;
  }
}

/** The bytes of a read as a Buffer, without copying them (a host may answer with a plain Uint8Array). */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

// A BOM is kept (`ignoreBOM`): the file-bom rule must see it.
const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** Bytes that look binary: a NUL among the first 8,000 (as git decides). */
function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8000).includes(0);
}

/**
 * A read file as UTF-8 text; `undefined` when nothing was read or the file looks binary. `decodeBytes`: decode only
 * that many of the first bytes (the caller cuts between characters).
 */
export function textOfRead(read: FileRead | undefined, decodeBytes?: number): string | undefined {
  if (!read || looksBinary(read.bytes)) return undefined;
  return UTF8.decode(decodeBytes === undefined ? read.bytes : read.bytes.subarray(0, decodeBytes));
}

/** A file's UTF-8 text through a host; `undefined` when it is missing, unreadable, over `maxBytes` or binary. Never throws. */
export async function readTextFile(host: SkillsHost, file: string, maxBytes?: number): Promise<string | undefined> {
  try {
    return textOfRead(await host.readFile(file, maxBytes === undefined ? undefined : { maxBytes }));
  } catch {
    return undefined;
  }
}

/**
 * {@link resolvedEntries} through a host that answers at once (the language server's request path, which must not
 * yield); `undefined` also when the host fails.
 */
export function resolvedEntriesNow(host: Pick<SyncSkillsHost, 'readDirectory' | 'kind'>, dir: string): { name: string; kind: PathKind }[] | undefined {
  try {
    return host.readDirectory(dir)?.map((e) => ({ name: e.name, kind: (e.kind === 'symlink' ? host.kind(`${dir}/${e.name}`) : e.kind) ?? 'other' }));
  } catch {
    return undefined;
  }
}

/** A folder's entries with symbolic links followed (a dangling link is `other`); `undefined` when it cannot be listed. */
export async function resolvedEntries(host: SkillsHost, dir: string): Promise<{ name: string; kind: PathKind }[] | undefined> {
  let entries: DirEntry[] | undefined;
  try {
    entries = await host.readDirectory(dir);
  } catch {
    return undefined;
  }
  if (!entries) return undefined;
  const out: { name: string; kind: PathKind }[] = [];
  for (const e of entries) {
    const kind = e.kind === 'symlink' ? await host.kind(`${dir}/${e.name}`) : e.kind;
    out.push({ name: e.name, kind: kind ?? 'other' });
  }
  return out;
}
