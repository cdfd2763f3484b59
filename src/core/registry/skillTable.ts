import type { LoadedSkill } from './loadedSkill';

/**
 * The skills of one root by skill folder, in scan order. A scan fills it as two arrays in listing order
 * (`undefined` for a folder that holds no skill); the map by folder is built only when a lookup misses its
 * position hint: a rescan of an unchanged folder lists it in the same order, so `get(dir, i)` finds each
 * skill at its old position without hashing thousands of paths.
 */
export class SkillTable {
  private map: Map<string, LoadedSkill> | undefined;
  /** Identifies the lint configuration the skills were checked with ('' for none). */
  configStamp = '';

  constructor(
    private dirs: string[] = [],
    private skills: (LoadedSkill | undefined)[] = [],
  ) {}

  /** The skill of folder `dir`; `hint`: the position where it probably is. */
  get(dir: string, hint = -1): LoadedSkill | undefined {
    if (!this.map && hint >= 0 && hint < this.dirs.length && this.dirs[hint] === dir) return this.skills[hint];
    return this.index().get(dir);
  }

  set(dir: string, skill: LoadedSkill): void {
    this.index().set(dir, skill);
  }

  delete(dir: string): void {
    this.index().delete(dir);
  }

  /** Appends the skills to `out` in scan order (later `set`s of new folders last). */
  pushTo(out: LoadedSkill[]): void {
    if (this.map) for (const s of this.map.values()) out.push(s);
    else for (const s of this.skills) if (s) out.push(s);
  }

  private index(): Map<string, LoadedSkill> {
    if (!this.map) {
      this.map = new Map();
      for (let i = 0; i < this.dirs.length; i++) {
        const s = this.skills[i];
        if (s) this.map.set(this.dirs[i], s);
      }
      this.dirs = [];
      this.skills = [];
    }
    return this.map;
  }
}
