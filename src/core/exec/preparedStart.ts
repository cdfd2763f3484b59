import { randomBytes } from 'node:crypto';
import { PREPARED_LAUNCHER } from './launcher';
import type { PersistentLauncher } from './persistentLauncher';
import { processCap, type ProcessCap } from './processLimit';

/** What a prepared start was made with: a run with other limits does not take it. */
interface Limits {
  sh: string;
  /** File-size limit, 512-byte blocks. */
  blocks: string;
  /** The run's process and thread allowance. */
  allowance: number;
}

interface Held extends Limits {
  id: number;
  /** A root runner's: the pids cgroup it joined. An ordinary user's start sets no process limit ahead (the line does). */
  cap?: ProcessCap;
}

/**
 * The next unsandboxed run's start, prepared in the background. A root runner's run gets a pids cgroup of its own
 * (processLimit.ts), and joining a cgroup v1 waits for a kernel grace period: ~10 ms of a run's ~15 ms when calls come
 * 10 ms apart (test/bench/exec.bench.ts); any run's start pays for a `sh` that sets its limits before it execs the
 * script. So once a run has ended, the persistent launcher spawns the next run's `sh` (launcher.ts PREPARED_LAUNCHER):
 * it sets the same limits, joins a new cgroup of the same allowance (root), and waits. An ordinary user's RLIMIT_NPROC
 * depends on the user's count at the run, so the run's line sets it (launcher.ts preparedCommand).
 * The next run with the same limits takes it and writes it one line that execs the script with the run's environment,
 * in the run's folder; any other run, or none, leaves it to be dropped. At most one is held; it never holds anything
 * of a run before it is taken, and each is taken once.
 */
export class PreparedStart {
  private held: Held | undefined;
  /** The limits of the last run that had a cgroup: what the next prepared start is made with. */
  private wanted: Limits | undefined;
  /** A run took (or looked for) a start and its {@link prepareNext} has not come yet. */
  private due = false;
  /** When a run last came before the previous run's {@link prepareNext} (calls back to back). */
  private missedAt: number | undefined;

  constructor(private readonly persistent: PersistentLauncher) {}

  /**
   * The prepared start for a run with these limits, taken (a held one for other limits is dropped), or undefined.
   * Also remembers the limits, for {@link prepareNext}.
   */
  take(limits: Limits): { id: number; cap?: ProcessCap } | undefined {
    // The last run's background work (prepareNext) has not come yet: the calls come back to back.
    if (this.due) this.missedAt = performance.now();
    this.due = true;
    this.wanted = limits;
    const held = this.held;
    this.held = undefined;
    if (!held) return undefined;
    if (held.sh === limits.sh && held.blocks === limits.blocks && held.allowance === limits.allowance) return held;
    void this.discard(held);
    return undefined;
  }

  /** A taken start that the run did not use after all (its environment cannot be exported): killed, its cgroup kept for the run. */
  unused(id: number): void {
    this.persistent.discard(id);
  }

  /** After a run's result: prepares the next start, if a run had a cgroup and none is held. Never throws. */
  prepareNext(): void {
    this.due = false;
    const want = this.wanted;
    if (!want || this.held) return;
    // Not for a while after calls came back to back: a start prepared then joins its cgroup while the next run joins its own.
    if (this.missedAt !== undefined && performance.now() - this.missedAt < BACK_TO_BACK_PAUSE_MS) return;
    const root = process.getuid?.() === 0;
    const cap = root ? processCap(want.allowance, false, 0, `next-${randomBytes(6).toString('hex')}`) : undefined;
    if (root && !cap?.cgroup) return;
    const id = this.persistent.prepare(want.sh, ['-c', PREPARED_LAUNCHER, 'agent-skills-launcher', want.blocks, cap?.cgroup ?? '-', want.sh], cap?.cgroup);
    if (id === undefined) {
      void cap?.release?.();
      return;
    }
    this.held = { ...want, id, ...(cap ? { cap } : {}) };
  }

  /** Kills the held start and removes its cgroup (the runner going idle: nothing is left behind). */
  async drop(): Promise<void> {
    const held = this.held;
    this.held = undefined;
    if (held) await this.discard(held);
  }

  private async discard(held: Held): Promise<void> {
    this.persistent.discard(held.id);
    await held.cap?.release?.();
  }
}

/** How long starts are not prepared after a run came back to back (as spareWorkspaces.ts pauses its spares). */
const BACK_TO_BACK_PAUSE_MS = 250;
