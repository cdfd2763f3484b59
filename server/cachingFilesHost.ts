import * as path from 'node:path';
import type { DirEntry, FileRead, FileStamp, PathKind, ReadOptions, SkillsHost } from '../src/core/host/skillsHost';
import { isInside } from './uris';

/**
 * A host that remembers what it read until told a path changed (workspace/didChangeWatchedFiles),
 * so validating on every keystroke does not touch the disk again and again.
 */
export class CachingFilesHost implements SkillsHost {
  private readonly kinds = new Map<string, Promise<PathKind | undefined>>();
  private readonly reals = new Map<string, Promise<string | undefined>>();
  private readonly stats = new Map<string, Promise<FileStamp | undefined>>();
  private readonly dirs = new Map<string, Promise<DirEntry[] | undefined>>();
  private readonly reads = new Map<string, Promise<FileRead | undefined>>();
  /** Results computed from a folder's files ({@link SkillsHost.remember}), by name and root. */
  private readonly kept = new Map<string, { root: string; input: string; value: Promise<unknown> }>();

  constructor(private readonly inner: SkillsHost) {}

  kind(p: string): Promise<PathKind | undefined> {
    return memo(this.kinds, p, () => this.inner.kind(p));
  }

  realPath(p: string): Promise<string | undefined> {
    return memo(this.reals, p, () => this.inner.realPath(p));
  }

  stat(p: string): Promise<FileStamp | undefined> {
    return memo(this.stats, p, () => this.inner.stat(p));
  }

  readDirectory(p: string): Promise<DirEntry[] | undefined> {
    return memo(this.dirs, p, () => this.inner.readDirectory(p));
  }

  readFile(p: string, options?: ReadOptions): Promise<FileRead | undefined> {
    return memo(this.reads, `${options?.maxBytes ?? ''}|${options?.noFollow ? 1 : 0}\u0000${p}`, () => this.inner.readFile(p, options));
  }

  remember<T>(root: string, name: string, input: string, compute: () => Promise<T>): Promise<T> {
    const key = `${name}\u0000${root}`;
    const known = this.kept.get(key);
    if (known && known.input === input) return known.value as Promise<T>;
    const value = compute();
    const entry = { root, input, value };
    this.kept.set(key, entry);
    // A failed computation is not kept: the next call tries again.
    value.catch(() => this.kept.get(key) === entry && this.kept.delete(key));
    return value;
  }

  /** Forgets everything about `changed`, what lies below it, the listing of its parent folder, and the results computed from a folder holding it. */
  invalidate(changed: string): void {
    for (const [k, e] of [...this.kept]) if (isInside(e.root, changed) || isInside(changed, e.root)) this.kept.delete(k);
    const parent = path.dirname(changed);
    for (const m of [this.kinds, this.reals, this.stats, this.dirs]) {
      for (const k of [...m.keys()]) if (isInside(changed, k) || k === parent) m.delete(k);
    }
    for (const k of [...this.reads.keys()]) if (isInside(changed, k.slice(k.indexOf('\u0000') + 1))) this.reads.delete(k);
  }

  clear(): void {
    for (const m of [this.kinds, this.reals, this.stats, this.dirs, this.reads]) m.clear();
    this.kept.clear();
  }
}

function memo<T>(m: Map<string, Promise<T>>, key: string, load: () => T | Promise<T>): Promise<T> {
  let v = m.get(key);
  if (!v) {
    v = Promise.resolve().then(load);
    m.set(key, v);
    // A failed read is not remembered: the next call tries again.
    v.catch(() => m.delete(key));
  }
  return v;
}
