/**
 * Keeps a {@link SkillIndex} in line with a changing list of skills (the registry's usable skills, every source):
 * each sync compares the list with what was indexed, by id and record, and puts or removes only the skills that
 * changed. A registry keeps an unchanged skill's record object from one scan to the next, so an unchanged skill
 * costs one map lookup; a changed one is read (its body) and tokenized again, alone.
 */
import type { MaybePromise, SkillsHost } from '../host/skillsHost';
import { asBuffer } from '../host/skillsHost';
import { MAX_SKILL_FILE_BYTES } from '../skill/parseLimits';
import { SkillIndex } from './skillIndex';

/** What the index needs of a skill. */
export interface IndexedSkill {
  id: string;
  name: string;
  description: string;
  /** Absolute SKILL.md path: where the body is read from. */
  location?: string;
  /** `sha256:<hex>` of SKILL.md, when the source knows it: a new digest means a new body. */
  digest?: string;
}

/** Reads a skill's body; undefined when it cannot (the skill is then indexed by name and description). */
export type BodyReader = (skill: IndexedSkill) => MaybePromise<string | undefined>;

/** What one sync changed. */
export interface SyncChange {
  added: number;
  changed: number;
  removed: number;
}

export class CatalogIndex {
  readonly index = new SkillIndex();
  readonly #known = new Map<string, IndexedSkill>();
  readonly #readBody?: BodyReader;

  /** `readBody`: how bodies are read (e.g. {@link hostBodyReader}); omitted: names and descriptions only. */
  constructor(readBody?: BodyReader) {
    this.#readBody = readBody;
  }

  /** Brings the index in line with `skills` (later duplicates of an id are ignored). */
  sync(skills: readonly IndexedSkill[]): MaybePromise<SyncChange> {
    const change: SyncChange = { added: 0, changed: 0, removed: 0 };
    const present = new Set<string>();
    const pending: Promise<void>[] = [];
    for (const s of skills) {
      if (present.has(s.id)) continue;
      present.add(s.id);
      const known = this.#known.get(s.id);
      if (known === s) continue;
      if (known && sameSkill(known, s)) {
        this.#known.set(s.id, s);
        continue;
      }
      if (known) change.changed++;
      else change.added++;
      this.#known.set(s.id, s);
      const body = this.#readBody ? safeRead(this.#readBody, s) : undefined;
      if (isPromise(body)) pending.push(body.then((b) => this.#putIfCurrent(s, b)));
      else this.index.put({ id: s.id, name: s.name, description: s.description, body });
    }
    if (this.#known.size > present.size) {
      for (const id of [...this.#known.keys()]) {
        if (present.has(id)) continue;
        this.#known.delete(id);
        this.index.remove(id);
        change.removed++;
      }
    }
    return pending.length ? Promise.all(pending).then(() => change) : change;
  }

  #putIfCurrent(s: IndexedSkill, body: string | undefined): void {
    // A later sync replaced or removed it while its body was read.
    if (this.#known.get(s.id) === s) this.index.put({ id: s.id, name: s.name, description: s.description, body });
  }
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
