/**
 * Keeps a {@link SkillIndex} in line with a changing list of skills (the registry's usable skills, every source):
 * each sync compares the list with what was indexed, by id and record, and puts or removes only the skills that
 * changed. A registry keeps an unchanged skill's record object from one scan to the next, so an unchanged skill
 * costs one map lookup; a changed one is read (its body) and tokenized again, alone.
 */
import type { FileWrites } from '../host/fileWrites';
import type { MaybePromise, SkillsHost } from '../host/skillsHost';
import { asBuffer } from '../host/skillsHost';
import { DEFAULT_MAX_READ_BYTES as MAX_SKILL_FILE_BYTES } from '../host/readLimits';
import { decodeIndexFile, encodeIndexFile, MAX_INDEX_FILE_BYTES, type SavedSkill, type SkillToSave } from './indexFile';
import { savedVocabulary, SkillIndex, type SavedVocabulary } from './skillIndex';
import type { SearchableSkill } from './skillSearch';

/** What the index needs of a skill: what a search answers of it, and the digest that tells a new body. */
export interface IndexedSkill extends SearchableSkill {
  /** `sha256:<hex>` of SKILL.md, when the source knows it: a new digest means a new body. */
  digest?: string;
}

/** Reads a skill's body; undefined when it cannot (the skill is then indexed by name and description). */
export type BodyReader = (skill: IndexedSkill) => MaybePromise<string | undefined>;

/**
 * A list of skills that may also say what changed in it since a cursor it gave (the runtime's `SkillSource` is
 * one): `changes()` gives the cursor of now, `changes(cursor)` the skills added or changed and the ids removed
 * since, or undefined when it cannot say.
 */
export interface IndexSource {
  list(): readonly IndexedSkill[];
  changes?(since?: never): { cursor: unknown; put: readonly IndexedSkill[]; removed: readonly string[] } | undefined;
}

/** What one sync changed. */
export interface SyncChange {
  added: number;
  changed: number;
  removed: number;
}

/** The saved index's file name in a state folder. */
export const SKILL_INDEX_FILE = 'skill-index.bin';

/** Where a catalog index is saved between starts (see indexFile.ts). */
export interface IndexCache {
  host: SkillsHost & Pick<FileWrites, 'writeFile'>;
  /** The saved index, e.g. `<state folder>/skill-index.bin`. */
  file: string;
  /** Told once when a saved index is there but cannot be used (then it is rebuilt and written again). */
  log?: (message: string) => void;
}

export class CatalogIndex {
  readonly index = new SkillIndex();
  /** Each indexed skill's record and the number of the last sync that listed it. */
  readonly #known = new Map<string, { skill: IndexedSkill; mark: number }>();
  #mark = 0;
  readonly #readBody?: BodyReader;
  readonly #cache?: IndexCache;
  /** The saved skills, until the first sync has used them. */
  #saved: { skills: Map<string, SavedSkill>; vocab: SavedVocabulary } | undefined;
  #loaded = false;
  /** Skills put from the saved index instead of read and tokenized (for tests and the bench). */
  reused = 0;
  /** Where the last {@link syncFrom} source's change feed stood, when the index matches its list at that point. */
  #cursor: { source: IndexSource; at: unknown } | undefined;

  /**
   * `readBody`: how bodies are read (e.g. {@link hostBodyReader}); omitted: names and descriptions only.
   * `cache`: a saved index to start from (skills whose stamp matches are not read again) and to {@link save} to.
   */
  constructor(readBody?: BodyReader, cache?: IndexCache) {
    this.#readBody = readBody;
    this.#cache = cache;
  }

  /** Brings the index in line with `skills` (later duplicates of an id are ignored). */
  sync(skills: readonly IndexedSkill[]): MaybePromise<SyncChange> {
    this.#cursor = undefined;
    return this.#syncAll(skills);
  }

  /**
   * Brings the index in line with `source.list()`, reading only what changed since the last call when the source
   * has a change feed (a full comparison of the list otherwise, and on the first call).
   */
  syncFrom(source: IndexSource): MaybePromise<SyncChange> {
    const last = this.#cursor?.source === source ? this.#cursor.at : undefined;
    const delta = last === undefined ? undefined : source.changes?.(last as never);
    if (delta) {
      this.#cursor = { source, at: delta.cursor };
      return this.#apply(delta.put, delta.removed);
    }
    // The cursor is taken before the list is read: a change in between is read again next time, never missed.
    const now = source.changes?.()?.cursor;
    const done = this.#syncAll(source.list());
    this.#cursor = now === undefined ? undefined : { source, at: now };
    return done;
  }

  #syncAll(skills: readonly IndexedSkill[]): MaybePromise<SyncChange> {
    if (this.#cache && !this.#loaded) {
      this.#loaded = true;
      const loaded = this.#load(this.#cache);
      if (isPromise(loaded)) return loaded.then(() => this.#sync(skills));
    }
    return this.#sync(skills);
  }

  /**
   * Writes the index of every skill with a stamp to the cache file (atomically, through the host); resolves
   * when written. Without a cache, nothing.
   */
  save(): MaybePromise<void> {
    if (!this.#cache) return;
    const skills: SkillToSave[] = [];
    for (const { skill: s } of this.#known.values()) {
      const stamp = stampOf(s);
      const doc = stamp === undefined ? undefined : this.index.tokensOf(s.id);
      if (stamp !== undefined && doc) skills.push({ stamp, doc });
    }
    return this.#cache.host.writeFile(this.#cache.file, encodeIndexFile(skills, this.index.vocabulary));
  }

  #load(cache: IndexCache): MaybePromise<void> {
    const use = (bytes: Uint8Array | undefined) => {
      if (!bytes) return;
      try {
        const saved = decodeIndexFile(bytes);
        this.#saved = { skills: saved.skills, vocab: savedVocabulary(saved.vocab, saved.df) };
      } catch (e) {
        cache.log?.(`Skill index: ignored the saved index ${cache.file}: ${(e as Error).message}. It is rebuilt from the skills and written again.`);
      }
    };
    const failed = (e: unknown) => {
      // A missing file is the first start; anything else (too large, unreadable) is said once.
      if ((e as NodeJS.ErrnoException)?.code !== 'ENOENT') cache.log?.(`Skill index: could not read the saved index ${cache.file}: ${(e as Error).message}. It is rebuilt from the skills.`);
    };
    try {
      const read = cache.host.readFile(cache.file, { maxBytes: MAX_INDEX_FILE_BYTES });
      if (isPromise(read)) return read.then((r) => use(r?.bytes && asBuffer(r.bytes)), failed);
      use(read?.bytes && asBuffer(read.bytes));
    } catch (e) {
      failed(e);
    }
  }

  #sync(skills: readonly IndexedSkill[]): MaybePromise<SyncChange> {
    const change: SyncChange = { added: 0, changed: 0, removed: 0 };
    // Each known skill is marked with the sync that last saw it: no set of ids is built per sync, and an
    // unchanged skill (the registry keeps its record object) costs one map lookup.
    const mark = ++this.#mark;
    let seen = 0;
    const pending: Promise<void>[] = [];
    for (const s of skills) {
      if (this.#known.get(s.id)?.mark === mark) continue;
      seen++;
      this.#put(s, mark, change, pending);
    }
    if (this.#known.size > seen) {
      for (const [id, entry] of [...this.#known]) {
        if (entry.mark === mark) continue;
        this.#known.delete(id);
        this.index.remove(id);
        change.removed++;
      }
    }
    // The saved skills serve the first sync only: later ones read what changed.
    this.#saved = undefined;
    return pending.length ? Promise.all(pending).then(() => change) : change;
  }

  /** Only the skills a change feed named: `put` added or changed, `removed` gone. */
  #apply(put: readonly IndexedSkill[], removed: readonly string[]): MaybePromise<SyncChange> {
    const change: SyncChange = { added: 0, changed: 0, removed: 0 };
    const pending: Promise<void>[] = [];
    for (const id of removed) {
      if (!this.#known.delete(id)) continue;
      this.index.remove(id);
      change.removed++;
    }
    // Marked as seen by the last full sync, which the next one's new mark supersedes.
    for (const s of put) this.#put(s, this.#mark, change, pending);
    return pending.length ? Promise.all(pending).then(() => change) : change;
  }

  /** Notes `s` as seen by sync `mark`; reads and indexes it again only when it is new or changed. */
  #put(s: IndexedSkill, mark: number, change: SyncChange, pending: Promise<void>[]): void {
    let entry = this.#known.get(s.id);
    if (entry && (entry.skill === s || sameSkill(entry.skill, s))) {
      entry.skill = s;
      entry.mark = mark;
      return;
    }
    if (entry) {
      change.changed++;
      entry.skill = s;
      entry.mark = mark;
    } else {
      change.added++;
      this.#known.set(s.id, (entry = { skill: s, mark }));
    }
    const from = this.#saved;
    const saved = from?.skills.get(s.id);
    if (from && saved && saved.stamp === stampOf(s)) {
      this.index.putSaved(saved.doc, from.vocab);
      this.reused++;
      return;
    }
    const body = this.#readBody ? safeRead(this.#readBody, s) : undefined;
    if (isPromise(body)) pending.push(body.then((b) => this.#putIfCurrent(s, b)));
    else this.index.put({ id: s.id, name: s.name, description: s.description, body });
  }

  #putIfCurrent(s: IndexedSkill, body: string | undefined): void {
    // A later sync replaced or removed it while its body was read.
    if (this.#known.get(s.id)?.skill === s) this.index.put({ id: s.id, name: s.name, description: s.description, body });
  }
}

/**
 * What a saved skill is keyed by: its SKILL.md digest (which covers the frontmatter and the body), location and
 * name. A skill without a digest (an MCP skill, a source that does not hash) is not saved.
 */
function stampOf(s: IndexedSkill): string | undefined {
  return s.digest ? `${s.digest}\n${s.location ?? ''}\n${s.name}\n${s.description.length}` : undefined;
}

function sameSkill(a: IndexedSkill, b: IndexedSkill): boolean {
  if (a.name !== b.name || a.description !== b.description || a.location !== b.location) return false;
  return a.digest === undefined || b.digest === undefined || a.digest === b.digest;
}

function safeRead(read: BodyReader, s: IndexedSkill): MaybePromise<string | undefined> {
  try {
    const r = read(s);
    return isPromise(r) ? r.catch(() => undefined) : r;
  } catch {
    return undefined;
  }
}

function isPromise<T>(v: MaybePromise<T>): v is Promise<T> {
  return typeof (v as { then?: unknown } | null)?.then === 'function';
}

/** Reads bodies through a host (bounded by the SKILL.md size limit); synchronous when the host is. */
export function hostBodyReader(host: SkillsHost): BodyReader {
  return (s) => {
    if (!s.location) return undefined;
    const read = host.readFile(s.location, { maxBytes: MAX_SKILL_FILE_BYTES });
    const toBody = (r: Awaited<typeof read>) => (r ? bodyOf(asBuffer(r.bytes).toString()) : undefined);
    return isPromise(read) ? read.then(toBody) : toBody(read);
  };
}

/** The Markdown after a SKILL.md's frontmatter (the whole text when it has none). */
export function bodyOf(text: string): string {
  if (!/^---[ \t]*\r?\n/.test(text)) return text;
  const end = /\r?\n---[ \t]*(\r?\n|$)/.exec(text.slice(3));
  return end ? text.slice(3 + end.index + end[0].length) : '';
}
