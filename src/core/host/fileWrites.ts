import type { MaybePromise, SkillsHost, SyncSkillsHost } from './skillsHost';

/** Options of {@link FileWrites.withLock}. */
export interface LockOptions {
  /** How long to wait for another holder before giving up (ms, default 10 000). */
  timeoutMs?: number;
  /** A lock older than this is taken over even when its holder still runs (a stuck writer; ms, default 30 000). */
  staleMs?: number;
  /**
   * For locks taken on a request's path (the state folder's session saves): the lock is a hard link to one pid file
   * this process keeps in the lock's folder, not to a pid file made and removed per lock (one file creation fewer
   * each time). Same waits, takeovers and messages; see the Node host's fileLock.ts.
   */
  keepOwnerFile?: boolean;
}

/**
 * The writing half of a host: what the core writes besides scripts' own files (sessions, the audit log, revisions,
 * overlays, the archive, skill edits). The Node hosts write to disk (`nodeWrites.ts`), the in-memory host to its map.
 * A missing path on `rename` throws (code `ENOENT`, as Node does); `remove` of nothing is not an error.
 */
export interface FileWrites {
  /**
   * Replaces `file` whole, so that a reader (and a crash at any point) sees the old content or the new one, never a
   * mix; makes missing parent folders. `mode` applies to a new file; an existing one keeps its mode. `durable: false`
   * skips the flushes to disk (still all or nothing for readers; a power loss may keep the old content).
   */
  writeFile(file: string, data: string | Uint8Array, options?: { mode?: number; durable?: boolean }): MaybePromise<void>;
  /** Appends to `file` (made, with its folders, when missing). `durable`: on disk before this answers (fsync). */
  appendFile(file: string, data: string | Uint8Array, options?: { durable?: boolean }): MaybePromise<void>;
  /** Makes a folder and its missing parents; an existing folder is fine. */
  mkdir(dir: string): MaybePromise<void>;
  /** Moves a file or folder to `to` (a file already there is replaced). */
  rename(from: string, to: string): MaybePromise<void>;
  /** Removes a file, or a folder with everything in it; nothing there is fine. */
  remove(p: string): MaybePromise<void>;
  /** Cuts `file` to `size` bytes (a torn last line dropped). */
  truncate(file: string, size: number): MaybePromise<void>;
  /**
   * Runs `fn` holding the lock `lockFile`, shared with every process writing through the same storage (two VS Code
   * windows over one global storage, the CLI); throws (code STORE_BUSY) naming the holder after `timeoutMs`.
   */
  withLock<T>(lockFile: string, fn: () => Promise<T>, options?: LockOptions): Promise<T>;
}

/** The methods of {@link FileWrites}, for a host that wraps another and passes its writes on. */
export const FILE_WRITE_METHODS = ['writeFile', 'appendFile', 'mkdir', 'rename', 'remove', 'truncate', 'withLock'] as const satisfies readonly (keyof FileWrites)[];

/** A host the core reads skills through and writes its state and edits through: the one host of `createAgentSkills`. */
export type WritableHost = SkillsHost & FileWrites;

/** A {@link WritableHost} whose reads answer at once (the Node host, the in-memory host). */
export type SyncWritableHost = SyncSkillsHost & FileWrites;

/** An error as Node's fs gives it (code, syscall, path), so the core maps a host's refusals as the disk's. */
export function fsError(code: string, text: string, syscall: string, p: string, dest?: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${text}, ${syscall} '${p}'${dest === undefined ? '' : ` -> '${dest}'`}`), { code, syscall, path: p, ...(dest === undefined ? {} : { dest }) });
}

/** The error a host throws for a missing path, with the code Node gives it. */
export function missingPath(p: string, call: string): NodeJS.ErrnoException {
  return fsError('ENOENT', 'no such file or directory', call, p);
}
