import { hash } from 'node:crypto';
import type { SkillDiagnostic } from '../skill/skillTypes';
import { asBuffer, type FileStamp } from '../host/skillsHost';
import { FILE_SUFFIXES, type SkillFileIndex } from './skillFileNames';
import type { SkillRecord, SkillRoot, SkillScope } from './registryTypes';

/** Files up to this size keep their text for the digest; larger ones are hashed when read. */
export const LAZY_DIGEST_MAX_BYTES = 4096;

/** `shadows` of every record that shadows nothing (frozen and shared; a winner gets its own list). */
export const NO_IDS = Object.freeze([]) as readonly string[] as string[];

/** What a skill is made from. */
export interface LoadedSkillInit {
  id: string;
  name: string;
  description: string;
  /** Which file of the folder was read: `location` is `rootDir` + that file's suffix. */
  file: SkillFileIndex;
  rootDir: string;
  root: SkillRoot;
  properties: Record<string, unknown>;
  diagnostics: SkillDiagnostic[];
  status: 'ok' | 'broken';
  mtimeMs: number;
  size: number;
}

/**
 * One skill as read from disk. It is already the record it is when no other skill has its name (its base
 * id, status `ok` or `broken`, shadowing nothing), so most skills are one object from disk to snapshot;
 * precedence makes new records only for names that several skills share. It is its own {@link FileStamp}
 * (the mtime and size of the file read; -1 when unreadable), so a rescan can skip the unchanged file.
 * A cold scan reads small files without their mtime (NaN: one system call fewer per skill); the first rescan
 * compares the file's content with what was read ({@link LoadedSkill.sameContent}) and then records the stamp
 * ({@link LoadedSkill.stampWith}). Nothing else changes once made: snapshots and rescans share it.
 *
 * The digest of a small file is computed when first asked for, from the text kept for it: a cold scan of
 * thousands of skills then hashes none of them, and most digests are never asked for (a load, the catalog
 * and `list` ask). The text is the file's bytes decoded as UTF-8, which encodes back to the same bytes
 * unless decoding replaced something (U+FFFD): such a file, and a large one, is hashed when read.
 * JSON gives the record's fields (digest included, the stamp and the kept text left out).
 */
export class LoadedSkill implements SkillRecord, FileStamp {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly rootDir: string;
  readonly scope: SkillScope;
  readonly root: SkillRoot;
  readonly properties: Record<string, unknown>;
  readonly diagnostics: SkillDiagnostic[];
  readonly status: 'ok' | 'broken';
  readonly shadows: string[] = NO_IDS;
  /** NaN until known when the file was read without its stamp (see the class comment). */
  mtimeMs: number;
  size: number;
  #digest: string | undefined;
  #text: string | undefined;
  #file: SkillFileIndex;

  /** `content`: the file's bytes, or its text when that encodes back to them (see the class comment); undefined when unreadable. */
  constructor(init: LoadedSkillInit, content: Uint8Array | string | undefined) {
    this.id = init.id;
    this.name = init.name;
    this.description = init.description;
    this.#file = init.file;
    this.rootDir = init.rootDir;
    this.scope = init.root.scope;
    this.root = init.root;
    this.properties = init.properties;
    this.diagnostics = init.diagnostics;
    this.status = init.status;
    this.mtimeMs = init.mtimeMs;
    this.size = init.size;
    if (typeof content === 'string') this.#text = content;
    else this.#digest = content ? digestOf(content) : '';
  }

  /**
   * Path of the SKILL.md (or skill.md) read. Made when asked for, not kept: a kept path is a second copy of the
   * folder's path (the one opened), and thousands of them are what a scan's garbage collections copy around.
   */
  get location(): string {
    return this.rootDir + FILE_SUFFIXES[this.#file];
  }

  /** True when `bytes` are the bytes this skill was read from (the kept text or the digest says). */
  sameContent(bytes: Uint8Array): boolean {
    if (bytes.byteLength !== this.size) return false;
    if (this.#text !== undefined) return asBuffer(bytes).toString() === this.#text;
    return this.#digest === digestOf(bytes);
  }

  /** Records the stamp of a read whose content {@link sameContent} found unchanged. */
  stampWith(stamp: FileStamp): void {
    this.mtimeMs = stamp.mtimeMs;
    this.size = stamp.size;
  }

  /** `sha256:<hex>` of the SKILL.md bytes ('' when the file could not be read). */
  get digest(): string {
    if (this.#digest === undefined) {
      this.#digest = digestOf(this.#text!);
      this.#text = undefined;
    }
    return this.#digest;
  }

  toJSON(): SkillRecord {
    const { id, name, description, location, rootDir, scope, root, properties, digest, diagnostics, status, shadows } = this;
    return { id, name, description, location, rootDir, scope, root, properties, digest, diagnostics, status, shadows };
  }
}

/** Decides what a skill keeps for its digest: its text when that is small and encodes back to `bytes`, else `bytes`. */
export function digestSource(bytes: Uint8Array, text: string): Uint8Array | string {
  // A one-byte string cannot hold U+FFFD: the search is free for ASCII and Latin-1 text.
  return bytes.length <= LAZY_DIGEST_MAX_BYTES && !text.includes('\uFFFD') ? text : bytes;
}

function digestOf(content: Uint8Array | string): string {
  return `sha256:${hash('sha256', content, 'hex')}`;
}
