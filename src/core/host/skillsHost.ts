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
  /** Stamps a file; `undefined` when it does not exist or is not a regular file. */
  stat(file: string): MaybePromise<FileStamp | undefined>;
  /**
   * Reads a regular file with its stamp; `undefined` when it does not exist. A FIFO, device or folder, or a
   * file over the size limit, throws (an `UnreadableFileError` from the Node hosts) without blocking or
   * reading it: the skill is listed as broken with that message, the others are unaffected.
   */
  readFile(file: string, options?: ReadOptions): MaybePromise<FileRead | undefined>;
}

/** How {@link SkillsHost.readFile} opens a file. */
export interface ReadOptions {
  /**
   * Refuse a symbolic link as the last part of the path (errno `ELOOP`) instead of following it, so a caller that
   * must hold files inside a folder checks only links (an Agent Plugin's skills) and plain files cost nothing more.
   */
  noFollow?: boolean;
}

