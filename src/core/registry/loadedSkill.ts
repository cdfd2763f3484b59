import { hash } from 'node:crypto';
import type { SkillDiagnostic, ValidationMode } from '../skill/skillTypes';
import { asBuffer, type FileStamp } from '../host/skillsHost';
import { FILE_SUFFIXES, type SkillFileIndex } from './skillFileNames';
import type { SkillRecord, SkillRoot, SkillScope } from './registryTypes';
import { checkLater, type SkillChecker } from './skillChecker';

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
  /** The findings, or the checker that found no error and makes them when they are first asked for (status `ok`). */
  diagnostics: SkillDiagnostic[] | SkillChecker;
  status: 'ok' | 'broken';
  /** The mode the checker is asked in, when it is asked later. */
  mode?: ValidationMode;
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
  // The fields after `diagnostics` (an own accessor made in the constructor) are made after it, in this order: a copy of
  // the record (`{ ...record }`, JSON) lists its fields in the order they were made.
  declare readonly status: 'ok' | 'broken';
  declare readonly shadows: string[];
  /** NaN until known when the file was read without its stamp (see the class comment). */
  declare mtimeMs: number;
  declare size: number;
  #digest: string | undefined;
  /** The file's text, kept while the digest or the findings are still to be made from it. */
  #text: string | undefined;
  #file: SkillFileIndex;
  #diagnostics: SkillDiagnostic[] | undefined;
  /** The checker asked when the findings are first wanted, and its mode (undefined once asked, or when never deferred). */
  #later: SkillChecker | undefined;
  #mode: ValidationMode | undefined;

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
    if (typeof init.diagnostics === 'function') {
      this.#later = init.diagnostics;
      this.#mode = init.mode ?? 'lenient';
    } else this.#diagnostics = init.diagnostics;
    // An own property, where a field would be: a copy of the record (`{ ...record }`, as `list --json` prints it) has it.
    Object.defineProperty(this, 'diagnostics', LoadedSkill.#diagnosticsProperty);
    this.status = init.status;
    this.shadows = NO_IDS;
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
      if (!this.#later) this.#text = undefined;
    }
    return this.#digest;
  }

  /**
   * The checker's findings. A skill the checker found no error in (status `ok`) is checked when they are first asked
   * for, from the text it was read from: a scan of thousands of skills makes no warning that nothing shows.
   */
  declare readonly diagnostics: SkillDiagnostic[];

  /** The own property `diagnostics` of every skill (one getter shared by all). */
  static readonly #diagnosticsProperty: PropertyDescriptor = {
    enumerable: true,
    get(this: LoadedSkill): SkillDiagnostic[] {
      if (this.#diagnostics === undefined) {
        this.#diagnostics = checkLater(this.#later!, this.#text!, this.rootDir, this.#file, this.#mode!);
        this.#later = undefined;
        if (this.#digest !== undefined) this.#text = undefined;
      }
      return this.#diagnostics;
    },
  };

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
