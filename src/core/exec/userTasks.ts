import * as fs from 'node:fs';
import { countNow, fewestNow, readCounters, type TaskCount } from './taskCount';

/**
 * An ordinary user's count of tasks for the runs' process caps (processLimit.ts), taken between runs: after a run's
 * result the persistent launcher counts in its own process (taskCount.ts, launcherProgram.ts), and the next run reads
 * only the machine's counters to bound how far that count can have drifted since. The cap is built on the fewest
 * tasks the user can have now, so a run never gets more than its allowance; while the drift is at most a quarter of
 * the allowance the run takes that bound (it gets at least three quarters of its allowance), else it counts now, on
 * its start, as every run did before.
 */
export class UserTasks {
  private last: TaskCount | undefined;
  /** The uid a run last needed the count of (none yet: nothing is counted between runs). */
  private wanted: number | undefined;
  /** The count in flight, if any. */
  private counting: Promise<void> | undefined;

  /** `countElsewhere`: a count taken off the runner's event loop (the persistent launcher's), undefined when it cannot. */
  constructor(private readonly countElsewhere?: (uid: number) => Promise<TaskCount | undefined>) {}

  /** The fewest tasks `uid` can have now, for a run allowed `allowance` processes and threads (0 where /proc does not say). */
  fewest(uid: number, allowance: number): number {
    this.wanted = uid;
    const last = this.last?.uid === uid ? this.last : undefined;
    const now = last && readCounters(fs, false);
    const bound = last && now ? fewestNow(last, now) : undefined;
    if (last && bound !== undefined && last.tasks - bound <= allowance / 4) return Math.max(0, bound);
    const fresh = countNow(fs, uid);
    if (!fresh) return 0;
    this.last = fresh;
    const after = readCounters(fs, false);
    return Math.max(0, (after && fewestNow(fresh, after)) ?? fresh.tasks);
  }

  /** After a run's result: the next run's count, taken in the background if a run needed one. Never throws. */
  prepareNext(): void {
    const uid = this.wanted;
    if (uid === undefined || this.counting || !this.countElsewhere) return;
    this.counting = this.countElsewhere(uid)
      .then((c) => {
        // A count whose counters are older than the one held bounds the present less tightly.
        if (c && c.uid === uid && (!this.last || this.last.uid !== uid || c.before.forks >= this.last.before.forks)) this.last = c;
      })
      .catch(() => undefined)
      .finally(() => (this.counting = undefined));
  }

  /** Resolves once no count is in flight (the runner going idle). */
  async settled(): Promise<void> {
    await this.counting;
  }
}

/** The fewest tasks `uid` can have now, counted now (a runner without a {@link UserTasks} of its own). */
export function fewestTasksNow(uid: number, allowance: number): number {
  return new UserTasks().fewest(uid, allowance);
}
