/** Most checkpoints passed between two clock reads. */
const MAX_STRIDE = 64;

/**
 * Keeps long synchronous work from blocking the event loop: code calls {@link TimeSlicer.checkpoint}
 * between small steps, and the slicer yields (setImmediate) once the current slice has run for
 * `budgetMs` of wall time. It records the longest slice it saw, both as wall time and as the process's
 * CPU time (which a busy machine does not inflate by descheduling us), so tests can check the bound.
 *
 * Reading the clock costs about as much as a small step (up to a microsecond on some machines), so
 * the slicer reads it only every `stride` checkpoints, a stride sized from the steps measured so far to
 * overshoot the budget by at most about a quarter.
 */
export class TimeSlicer {
  private sliceStart = performance.now();
  private cpuStart = process.cpuUsage();
  /** Longest wall time (ms) between two yields seen by this slicer. */
  longestSliceMs = 0;
  /** Longest CPU time (ms, user + system) spent between two yields. */
  longestSliceCpuMs = 0;
  yields = 0;
  private stride = 1;
  private untilClock = 1;
  private lastClock = this.sliceStart;

  constructor(private readonly budgetMs = 8) {}

  /**
   * Yields to the event loop when the current slice is over budget. `afterBigStep`: the work since the
   * last checkpoint was not one of the small steps the stride is sized for, so read the clock now.
   */
  checkpoint(afterBigStep = false): Promise<void> | undefined {
    if (--this.untilClock > 0 && !afterBigStep) return undefined;
    const now = performance.now();
    const perStep = (now - this.lastClock) / this.stride;
    this.lastClock = now;
    this.stride = perStep > 0 ? Math.max(1, Math.min(MAX_STRIDE, Math.floor(this.budgetMs / 4 / perStep))) : MAX_STRIDE;
    this.untilClock = this.stride;
    if (now - this.sliceStart < this.budgetMs) return undefined;
    this.closeSlice();
    this.yields++;
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        this.sliceStart = this.lastClock = performance.now();
        this.cpuStart = process.cpuUsage();
        resolve();
      }),
    );
  }

  /** Closes the last slice so the maxima cover it. */
  finish(): void {
    this.closeSlice();
  }

  private closeSlice(): void {
    const wall = performance.now() - this.sliceStart;
    const cpu = process.cpuUsage(this.cpuStart);
    if (wall > this.longestSliceMs) this.longestSliceMs = wall;
    const cpuMs = (cpu.user + cpu.system) / 1000;
    if (cpuMs > this.longestSliceCpuMs) this.longestSliceCpuMs = cpuMs;
  }
}
