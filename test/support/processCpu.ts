// CPU time a child process has used, read from /proc (Linux): a measure of work that does not grow with the
// machine's load, unlike wall-clock time, so a unit test can bound the work without timing it.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';

let ticksPerSecond: number | undefined;

/** User + system CPU milliseconds used so far by process `pid` (its own threads, not its children). */
export function processCpuMs(pid: number): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) is in parentheses and may hold spaces: count fields from the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state); utime and stime are fields 14 and 15.
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Math.round((ticks * 1000) / ticksPerSecond);
}

/**
 * Resolves with `work()`'s result, or rejects once process `pid` has used more than `budgetMs` of CPU since the
 * call (checked every `everyMs`): a bound on the work done for the answer, whatever the wall-clock time.
 */
export async function withinCpu<T>(pid: number, budgetMs: number, work: () => Promise<T>, what: string, everyMs = 50): Promise<{ value: T; cpuMs: number }> {
  const start = processCpuMs(pid);
  let timer: NodeJS.Timeout | undefined;
  const over = new Promise<never>((_, reject) => {
    timer = setInterval(() => {
      const used = processCpuMs(pid) - start;
      if (used > budgetMs) reject(new Error(`${what}: the process used ${used} ms of CPU without answering (budget ${budgetMs} ms)`));
    }, everyMs);
  });
  try {
    const value = await Promise.race([work(), over]);
    return { value, cpuMs: processCpuMs(pid) - start };
  } finally {
    clearInterval(timer);
  }
}
