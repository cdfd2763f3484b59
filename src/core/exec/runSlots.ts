import { ScriptRunError } from './scriptRunError';

/**
 * The cap on a runner's concurrent runs: at most `max` run at once, up to `maxQueued` more wait in order
 * for a slot, and past that a run is refused before anything is made or started (60 parallel calls must
 * not start 60 sandboxes). A run cancelled while it waits is refused too: it never started.
 */
export class RunSlots {
  private running = 0;
  private readonly waiting: { go: () => void }[] = [];

  constructor(
    readonly max: number,
    readonly maxQueued: number,
  ) {}

  /** Takes a slot, waiting when all are taken; says how long it waited and how many ran then. */
  async acquire(signal?: AbortSignal): Promise<{ waitedMs: number }> {
    if (this.running < this.max && this.waiting.length === 0) {
      this.running++;
      return { waitedMs: 0 };
    }
    if (this.waiting.length >= this.maxQueued) {
      throw new ScriptRunError(
        'runner_busy',
        `${this.running} script runs are running and ${this.waiting.length} more are waiting, the most this runner allows (maxConcurrentRuns ${this.max}, maxQueuedRuns ${this.maxQueued}): this run was refused and nothing was started. Wait for a run to finish, then call again.`,
      );
    }
    if (signal?.aborted) throw cancelledWhileWaiting();
    const t0 = performance.now();
    await new Promise<void>((resolve, reject) => {
      const entry = {
        go: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        const at = this.waiting.indexOf(entry);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(cancelledWhileWaiting());
      };
      this.waiting.push(entry);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    return { waitedMs: Math.round(performance.now() - t0) };
  }

  /** Gives the slot back: the first waiting run takes it over. */
  release(): void {
    const next = this.waiting.shift();
    if (next) next.go();
    else this.running--;
  }
}

function cancelledWhileWaiting(): ScriptRunError {
  return new ScriptRunError('runner_busy', 'the run was cancelled while it waited for a free run slot; nothing was started.');
}
