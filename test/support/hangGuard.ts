/**
 * `work`'s result, or a rejection naming `what` once `ms` have passed by the clock: a guard against a hang (a wait
 * that never ends, such as a FIFO opened for reading), set far above what a loaded machine takes. It does not bound
 * how fast the work is; a bound on work is its CPU time (test/support/processCpu.ts, boundedChild.ts).
 */
export async function withHangGuard<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no end after ${ms / 1000} s by the clock, a hang guard far above a loaded run`)), ms);
  });
  try {
    return await Promise.race([work, hung]);
  } finally {
    clearTimeout(timer);
  }
}
