/**
 * Keeps long synchronous work from blocking the event loop: code calls {@link TimeSlicer.checkpoint}
 * between small steps, and the slicer yields (setImmediate) once the current slice has run for
 * `budgetMs`. It records the longest slice it saw, so tests can check the bound without timing races.
 */
export class TimeSlicer {
  private sliceStart = performance.now();
  /** Longest time (ms) between two yields seen by this slicer. */
  longestSliceMs = 0;
  yields = 0;

  constructor(private readonly budgetMs = 8) {}

  /** Starts a new slice, e.g. after an `await` that really went back to the event loop. */
  reset(): void {
    this.sliceStart = performance.now();
  }

  /** Yields to the event loop when the current slice is over budget. */
  checkpoint(): Promise<void> | undefined {
    const now = performance.now();
    const ran = now - this.sliceStart;
    if (ran < this.budgetMs) return undefined;
    if (ran > this.longestSliceMs) this.longestSliceMs = ran;
    this.yields++;
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        this.sliceStart = performance.now();
        resolve();
      }),
    );
  }

  /** Closes the last slice so {@link longestSliceMs} covers it. */
  finish(): void {
    const ran = performance.now() - this.sliceStart;
    if (ran > this.longestSliceMs) this.longestSliceMs = ran;
  }
}
