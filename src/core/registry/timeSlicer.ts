/**
 * Keeps long synchronous work from blocking the event loop: code calls {@link TimeSlicer.checkpoint}
 * between small steps, and the slicer yields (setImmediate) once the current slice has run for
 * `budgetMs` of wall time. It records the longest slice it saw, both as wall time and as the process's
 * CPU time (which a busy machine does not inflate by descheduling us), so tests can check the bound.
 */
export class TimeSlicer {
  private sliceStart = performance.now();
  private cpuStart = process.cpuUsage();
  /** Longest wall time (ms) between two yields seen by this slicer. */
  longestSliceMs = 0;
  /** Longest CPU time (ms, user + system) spent between two yields. */
  longestSliceCpuMs = 0;
  yields = 0;

  constructor(private readonly budgetMs = 8) {}

  /** Yields to the event loop when the current slice is over budget. */
  checkpoint(): Promise<void> | undefined {
    if (performance.now() - this.sliceStart < this.budgetMs) return undefined;
    this.closeSlice();
    this.yields++;
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        this.sliceStart = performance.now();
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
