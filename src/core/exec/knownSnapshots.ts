import { isInside } from '../paths/isInside';
import { fingerprintCopy } from './sourceTree';

/** What a runner remembers of one snapshot it has read or made. */
export interface KnownSnapshot {
  /** Fingerprint of the copy as it was made. */
  copy: string;
  warnings: string[];
  /** Top-level entry names of the copy. */
  entries: string[];
  /** Runs using the copy now. */
  users: number;
  /** The copy was checked against `copy` after the last run that used it ended, and no run has started since. */
  clean: boolean;
}

/**
 * A runner's memory of its snapshots, by snapshot folder. A run may change the copy it ran on (local mode
 * cannot stop an owner's chmod, nor root): so the copy is checked again once the last run on it ends, off
 * any run's path, and the next run skips that check only when it passed and no run came in between. Any
 * other case (first use, a run in progress, a failed check) checks the copy on the run's path, as before.
 */
export class KnownSnapshots {
  private readonly byDir = new Map<string, KnownSnapshot>();

  get(dir: string): KnownSnapshot | undefined {
    return this.byDir.get(dir);
  }

  remember(dir: string, meta: { copy: string; warnings: string[] }, entries: string[]): void {
    this.byDir.set(dir, { copy: meta.copy, warnings: meta.warnings, entries, users: 0, clean: false });
  }

  forget(dir: string): void {
    this.byDir.delete(dir);
  }

  /** Forgets every snapshot under `keyDir` but `keep` (older versions of a skill, removed from disk). */
  forgetOthers(keyDir: string, keep: string): void {
    for (const dir of this.byDir.keys()) if (dir !== keep && dir !== keyDir && isInside(keyDir, dir)) this.byDir.delete(dir);
  }

  /** A run starts on the copy at `dir`. */
  acquire(dir: string): void {
    const known = this.byDir.get(dir);
    if (!known) return;
    known.users++;
    known.clean = false;
  }

  /** A run on the copy at `dir` ended; the last one out checks the copy (synchronously: call it off a run's path). */
  release(dir: string, excludes: ReadonlySet<string>): void {
    const known = this.byDir.get(dir);
    if (!known) return;
    known.users = Math.max(0, known.users - 1);
    if (known.users > 0) return;
    let same: boolean;
    try {
      same = fingerprintCopy(dir, excludes) === known.copy;
    } catch {
      same = false; // gone
    }
    if (same) known.clean = true;
    else this.byDir.delete(dir);
  }
}
