// CPU time of one piece of work in this process, for the tests that hold a scan linear (scannerFuzz, the red-team
// tests of validate): CPU time, not wall time, so other processes on a loaded machine do not count.
import * as v8 from 'node:v8';
import * as vm from 'node:vm';

v8.setFlagsFromString('--expose-gc');
/** A full garbage collection now (V8's `gc`, made available to this process). */
const collectGarbage = vm.runInNewContext('gc') as () => void;

/**
 * CPU time `f` took in this process (user + system, ms). The garbage of earlier runs is collected first, so that
 * collecting it is not counted as this run's work (it made the cost of a run depend on what ran before it).
 */
export async function cpuMs(f: () => Promise<unknown>): Promise<number> {
  collectGarbage();
  const t = process.cpuUsage();
  await f();
  const d = process.cpuUsage(t);
  return (d.user + d.system) / 1000;
}
