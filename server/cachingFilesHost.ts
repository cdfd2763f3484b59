import * as path from 'node:path';
import type { SkillDirEntry, SkillFilesHost } from '../src/core/skill';
import { isInside } from './uris';

/**
 * A SkillFilesHost that remembers what it read until told a path changed (workspace/didChangeWatchedFiles),
 * so validating on every keystroke does not touch the disk again and again.
 */
export class CachingFilesHost implements SkillFilesHost {
  private readonly stats = new Map<string, Promise<'file' | 'directory' | 'other' | undefined>>();
  private readonly dirs = new Map<string, Promise<SkillDirEntry[] | undefined>>();
  private readonly texts = new Map<string, Promise<string | undefined>>();

  constructor(private readonly inner: SkillFilesHost) {}

  stat(p: string): Promise<'file' | 'directory' | 'other' | undefined> {
    return memo(this.stats, p, () => this.inner.stat(p));
  }

  readDir(p: string): Promise<SkillDirEntry[] | undefined> {
    return memo(this.dirs, p, () => this.inner.readDir(p));
  }

  readText(p: string, maxBytes?: number): Promise<string | undefined> {
    return memo(this.texts, `${maxBytes ?? ''}\u0000${p}`, () => this.inner.readText(p, maxBytes));
  }

  /** Forgets everything about `changed`, what lies below it, and the listing of its parent folder. */
  invalidate(changed: string): void {
    const parent = path.dirname(changed);
    for (const m of [this.stats, this.dirs]) {
      for (const k of [...m.keys()]) if (isInside(changed, k) || k === parent) m.delete(k);
    }
    for (const k of [...this.texts.keys()]) if (isInside(changed, k.slice(k.indexOf('\u0000') + 1))) this.texts.delete(k);
  }

  clear(): void {
    this.stats.clear();
    this.dirs.clear();
    this.texts.clear();
  }
}

function memo<T>(m: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
  let v = m.get(key);
  if (!v) {
    v = load();
    m.set(key, v);
    // A failed read is not remembered: the next call tries again.
    v.catch(() => m.delete(key));
  }
  return v;
}
