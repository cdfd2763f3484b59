import { startProcess, type ProcessEvents, type StartedProcess, type StartSpec } from './startedProcess';

/** What to spawn and how long it may take. */
export interface ProcessSpec {
  program: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  /** Time between SIGTERM and SIGKILL of the process group. */
  killGraceMs: number;
  stdoutCap: number;
  stderrCap: number;
  /** Cancels the run (reported as `cancelled`). */
  signal?: AbortSignal;
  /** Stops the run for the runner's own reason, e.g. a size cap (not reported as cancelled). */
  stop?: AbortSignal;
  /**
   * How long to go on reading stdout/stderr once the leader has exited: a process that left the group
   * (`setsid`) and keeps the pipes open must not hold the run (ms, default 500).
   */
  pipeGraceMs?: number;
  /** Kills what escaped the process group: called at the timeout, on cancel or stop, and after the leader exits. */
  sweep?: (leaderPid: number) => void;
  /** Who spawns the group: this process by default, or the runner's persistent launcher. */
  start?: (spec: StartSpec, on: ProcessEvents) => StartedProcess;
  /** Bind options of `args` to pin as open descriptors at the spawn (bindFds.ts). */
  pins?: number[];
  /** Told the leader's pid once it is started (the size watch reads what the run's processes hold). */
  onPid?: (pid: number) => void;
}

/** How the process ended. */
export interface ProcessOutcome {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  timedOut: boolean;
  cancelled: boolean;
  /** Ended by `stop`. */
  stopped: boolean;
  /** Something still held stdout or stderr open a grace period after the leader exited; reading stopped. */
  pipesHeld: boolean;
  /** Set when the program could not be started at all (e.g. ENOENT). */
  spawnError?: NodeJS.ErrnoException;
}

/** Keeps the first `cap` bytes of a stream and counts the rest. */
class CappedBuffer {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  truncated = false;

  constructor(private readonly cap: number) {}

  push(chunk: Buffer): void {
    const room = this.cap - this.kept;
    if (room <= 0) {
      this.truncated = true;
      return;
    }
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (part.length < chunk.length) this.truncated = true;
    this.chunks.push(part);
    this.kept += part.length;
  }

  text(): string {
    return Buffer.concat(this.chunks, this.kept).toString('utf8');
  }
}

/**
 * Spawns the program as the leader of a new process group (detached), with stdin closed. On timeout
 * or abort the whole group gets SIGTERM, then SIGKILL after the grace period. When the leader exits,
 * whatever it left running in its group is killed too, so no process outlives its run and the pipes
 * close. A descendant that calls setsid() leaves the group: `sweep` finds those (outside a sandbox),
 * the sandbox's PID namespace takes them down with bwrap (inside), and reading stops `pipeGraceMs` after
 * the leader exits whatever still holds the pipes. `start` says who spawns it: this process, or the runner's
 * persistent launcher (then the group's leader is the launcher's child; the runner signals it by pid).
 */
export function runProcess(spec: ProcessSpec): Promise<ProcessOutcome> {
  return new Promise((resolve) => {
    const stdout = new CappedBuffer(spec.stdoutCap);
    const stderr = new CappedBuffer(spec.stderrCap);
    let timedOut = false;
    let cancelled = false;
    let stopped = false;
    let pipesHeld = false;
    let done = false;
    let spawnError: NodeJS.ErrnoException | undefined;
    let exit: { code: number | null; signal: string | null } | undefined;
    const timers: NodeJS.Timeout[] = [];

    let pid: number | undefined;
    const terminate = (): void => {
      if (exit) return;
      child.kill('SIGTERM');
      if (pid !== undefined) spec.sweep?.(pid);
      const t = setTimeout(() => child.kill('SIGKILL'), spec.killGraceMs);
      timers.push(t);
    };
    const onAbort = (): void => {
      cancelled = true;
      terminate();
    };
    const onStop = (): void => {
      stopped = true;
      terminate();
    };

    const onExit = (code: number | null, signal: string | null): void => {
      exit = { code, signal };
      // Reap the rest of the group now that the leader is gone, and what left it.
      if (pid !== undefined) {
        child.kill('SIGKILL');
        // Pipes still open a moment after the exit: something escaped the group with them. (Not swept on
        // every exit: a scan of /proc would cost each run more than its whole start.)
        const leader = pid;
        if (spec.sweep) timers.push(setTimeout(() => !done && spec.sweep?.(leader), 20));
      }
      // A process that escaped with the pipes may still hold them: stop reading after a grace period.
      timers.push(
        setTimeout(() => {
          if (done) return;
          pipesHeld = true;
          child.release();
          finish(code, signal);
        }, spec.pipeGraceMs ?? 500),
      );
    };
    const finish = (code: number | null, signal: string | null): void => {
      if (done) return;
      done = true;
      for (const t of timers) clearTimeout(t);
      spec.signal?.removeEventListener('abort', onAbort);
      spec.stop?.removeEventListener('abort', onStop);
      const final = exit ?? { code, signal };
      resolve({
        exitCode: spawnError ? null : final.code,
        signal: final.signal,
        stdout: stdout.text(),
        stderr: stderr.text(),
        stdoutTruncated: stdout.truncated,
        stderrTruncated: stderr.truncated,
        timedOut,
        cancelled,
        stopped,
        pipesHeld,
        spawnError,
      });
    };

    const child = (spec.start ?? startProcess)(
      { program: spec.program, args: spec.args, cwd: spec.cwd, env: spec.env, caps: [spec.stdoutCap, spec.stderrCap], pins: spec.pins },
      {
        pid: (p) => {
          pid = p;
          spec.onPid?.(p);
        },
        out: (fd, c) => (fd === 1 ? stdout : stderr).push(c),
        error: (err) => (spawnError = err),
        exit: onExit,
        close: () => finish(null, null),
      },
    );
    if (spec.timeoutMs > 0) {
      timers.push(
        setTimeout(() => {
          timedOut = true;
          terminate();
        }, spec.timeoutMs),
      );
    }
    if (spec.signal) {
      if (spec.signal.aborted) onAbort();
      else spec.signal.addEventListener('abort', onAbort, { once: true });
    }
    if (spec.stop) {
      if (spec.stop.aborted) onStop();
      else spec.stop.addEventListener('abort', onStop, { once: true });
    }
  });
}
