import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { removeTreeAsync } from './skillSnapshot';
import { buildWorkspaceAsync, type SkillView } from './workspace';
import { processAlive } from '../os/processAlive';

interface Spare {
  /** Identifies the view the spare was built for (skill, snapshot, dependency links). */
  signature: string;
  /** Root of the built tree, or undefined when building it failed. */
  root: Promise<string | undefined>;
  /** `root`'s value once it has settled (so a run takes a ready spare without waiting a tick); undefined before. */
  settled?: { root: string | undefined };
}

/**
 * Workspaces built ahead of time, at most one per skill: once a run has ended, the next workspace for the
 * same skill is built on the thread pool (folders, the staged skill view, links), so the next run takes it
 * with one rename instead of a dozen folder and link creations on its own path. (Not while the process
 * starts: the thread pool's work would slow the start down.) A spare is never handed
 * to any process before it is taken, so every run still starts from a fresh, empty workspace.
 * Spares live in `<stateDir>/spares/<pid>-<random>`; those of processes that are gone are removed.
 */
export class SpareWorkspaces {
  private readonly spares = new Map<string, Spare>();
  private readonly pending = new Set<Promise<unknown>>();
  /** When a run of the skill last found its spare still being built (calls back to back). */
  private readonly missedAt = new Map<string, number>();
  private sweptStale = false;

  constructor(
    private readonly sparesDir: string,
    /** Skills with a spare at once; the least recently run lose theirs. */
    private readonly maxSkills = 8,
  ) {}

  /**
   * Takes the spare built for `key` when it is ready and matches `view`, or undefined. One still being built
   * is left for a later run (building a workspace now costs less than waiting for it). A spare for an older
   * view of the skill (its snapshot changed) is removed.
   */
  take(key: string, view: SkillView): string | undefined {
    const spare = this.spares.get(key);
    if (!spare) return undefined;
    if (!spare.settled && spare.signature === signatureOf(view)) {
      this.missedAt.set(key, performance.now());
      return undefined;
    }
    this.spares.delete(key);
    if (spare.signature !== signatureOf(view)) {
      this.discard(spare);
      return undefined;
    }
    return spare.settled?.root;
  }

  /**
   * Starts building a spare for `key` in the background, unless one exists. Never throws. Not for a while
   * after a run found its spare unfinished: back-to-back runs gain nothing from it, and the background
   * work would compete with them.
   */
  prepare(key: string, view: SkillView): void {
    if (this.spares.has(key)) return;
    const missed = this.missedAt.get(key);
    if (missed !== undefined && performance.now() - missed < BACK_TO_BACK_PAUSE_MS) return;
    const root = path.join(this.sparesDir, `${process.pid}-${randomBytes(6).toString('hex')}`);
    const built = (async () => {
      if (!this.sweptStale) {
        this.sweptStale = true;
        await this.sweepStale();
      }
      await fs.promises.mkdir(this.sparesDir, { recursive: true });
      await buildWorkspaceAsync(root, view);
      return root;
    })().catch(async () => {
      await removeTreeAsync(root).catch(() => undefined);
      return undefined;
    });
    const spare: Spare = { signature: signatureOf(view), root: built };
    void built.then((root) => (spare.settled = { root }));
    this.track(built);
    this.spares.set(key, spare);
    while (this.spares.size > this.maxSkills) {
      const [oldest, spare] = this.spares.entries().next().value as [string, Spare];
      this.spares.delete(oldest);
      this.discard(spare);
    }
  }

  /** Resolves when no spare is being built or removed. */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private discard(spare: Spare): void {
    this.track(spare.root.then((root) => (root ? removeTreeAsync(root).catch(() => undefined) : undefined)));
  }

  private track(p: Promise<unknown>): void {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }

  /** Removes spares left by processes that no longer exist (a runner that was not shut down). */
  private async sweepStale(): Promise<void> {
    let names: string[];
    try {
      names = await fs.promises.readdir(this.sparesDir);
    } catch {
      return;
    }
    for (const name of names) {
      const pid = Number(name.split('-')[0]);
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !processAlive(pid)) await removeTreeAsync(path.join(this.sparesDir, name)).catch(() => undefined);
    }
  }
}

/** How long spares stay off for a skill whose runs come faster than a spare can be built. */
const BACK_TO_BACK_PAUSE_MS = 250;

function signatureOf(view: SkillView): string {
  return JSON.stringify([view.skillName, view.snapshotDir, view.entries, view.depLinks]);
}

