// Runs a command to its end for a test, bounding its WORK (the CPU time of its whole process tree, read from /proc)
// rather than its wall-clock time: on a loaded machine the same work takes many times longer by the clock (a
// 2-core machine at load 40 gives a process about 1/20 of a core), but no more CPU. A wall-clock limit stays only
// as a hang guard, far above any loaded run, and when it fires it names the processes still running and their state.
import { spawn, type SpawnOptions } from 'node:child_process';
import { describeTree, procStat, TreeCpuMeter } from './processCpu';

export interface WorkBounds {
  /** What runs, for messages: "scripts/package.mjs", "agent-skills validate --format json". */
  what: string;
  /** CPU milliseconds the tree may use; past it the tree is killed and the run fails. */
  cpuMs: number;
  /** Wall-clock milliseconds before the tree counts as hung (killed, failing with what was still running). */
  hangMs: number;
  /** How often the tree's CPU is read (default 100 ms). */
  everyMs?: number;
}

export interface BoundedResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** CPU milliseconds the tree used (its last reading while it ran, or the total its root reaped, if larger). */
  cpuMs: number;
  wallMs: number;
}

/**
 * Spawns `cmd args` in its own process group and resolves when it exits; rejects, after killing the group, when the
 * tree uses more than `bounds.cpuMs` of CPU or is still running after `bounds.hangMs`. The caller's mocha timeout
 * must exceed `hangMs` (use `hangGuardTimeout`), so that the guard, which names what hung, fires first.
 */
export function runBounded(cmd: string, args: readonly string[], options: Omit<SpawnOptions, 'detached' | 'stdio'>, bounds: WorkBounds): Promise<BoundedResult> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const reapedBefore = procStat(process.pid)?.reapedMs ?? 0;
    const child = spawn(cmd, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const pid = child.pid;
    if (pid === undefined) {
      child.once('error', (e) => reject(new Error(`${bounds.what}: could not start: ${e.message}`)));
      return;
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on('data', (b: Buffer) => out.push(b));
    child.stderr?.on('data', (b: Buffer) => err.push(b));
    const meter = new TreeCpuMeter(pid);
    let cpuMs = 0;
    let failed: Error | undefined;
    const killGroup = () => {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    };
    // A test run that ends (or dies) mid-command takes the command with it.
    process.once('exit', killGroup);
    const fail = (why: string) => {
      if (failed) return;
      const tree = describeTree(pid);
      failed = new Error(`${bounds.what}: ${why}; still running:\n${tree}\nits stderr so far: ${Buffer.concat(err).toString('utf8').slice(-2000)}`);
      killGroup();
    };
    const timer = setInterval(() => {
      cpuMs = meter.read();
      if (cpuMs > bounds.cpuMs) fail(`used ${cpuMs} ms of CPU, over its budget of ${bounds.cpuMs} ms (${Date.now() - started} ms by the clock)`);
    }, bounds.everyMs ?? 100);
    const guard = setTimeout(
      () => fail(`still running after ${bounds.hangMs / 1000} s by the clock, a hang guard far above a loaded run, having used ${cpuMs} ms of CPU (budget ${bounds.cpuMs} ms)`),
      bounds.hangMs,
    );
    child.once('error', (e) => fail(`could not run: ${e.message}`));
    child.once('close', (code, signal) => {
      clearInterval(timer);
      clearTimeout(guard);
      process.removeListener('exit', killGroup);
      if (failed) return reject(failed);
      // Once reaped, the tree's CPU shows in this process's children's time (but not a descendant handed to init;
      // and with any other child reaped meanwhile: a test runs one command at a time, so that is a few milliseconds).
      cpuMs = Math.max(cpuMs, (procStat(process.pid)?.reapedMs ?? 0) - reapedBefore);
      resolve({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), cpuMs, wallMs: Date.now() - started });
    });
  });
}

/** A mocha timeout for a test or hook that runs `commands` bounded commands one after another, each up to `hangMs`. */
export function hangGuardTimeout(hangMs: number, commands = 1): number {
  return commands * hangMs + 30_000;
}
