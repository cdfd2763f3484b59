import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { pinBinds } from './sandbox/bindFds';

/** What {@link startProcess} and the persistent launcher start: one program, as a new process group. */
export interface StartSpec {
  program: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** Bytes of stdout and stderr the runner keeps: a relay may drop what comes after cap + 1. */
  caps: [number, number];
  /** `NAME=value` tagging the run's processes: the persistent launcher sweeps by it when the runner goes away. */
  marker?: string;
  /** Bind options of `args` to pin as open descriptors at the spawn (bindFds.ts). */
  pins?: number[];
  /** The run's pids cgroup (processLimit.ts): the persistent launcher removes it when the runner goes away first. */
  cgroup?: string;
  /**
   * A prepared start of the persistent launcher to take (preparedStart.ts): its id and the line that makes it this run
   * (launcher.ts preparedCommand). Spawned from `program` and `args` as without it when that start is gone.
   */
  prepared?: { id: number; go: string };
}

/** Events of a started process group, whoever spawned it (the runner itself or its persistent launcher). */
export interface ProcessEvents {
  pid(pid: number): void;
  out(fd: 1 | 2, chunk: Buffer): void;
  error(err: NodeJS.ErrnoException): void;
  exit(code: number | null, signal: string | null): void;
  /** Both pipes closed (always after `exit`, or after `error` when it never started). */
  close(): void;
}

/** A started process group, seen from the runner. */
export interface StartedProcess {
  /** Signals the whole group (once its leader's pid is known; a signal sent before waits for it). */
  kill(sig: NodeJS.Signals): void;
  /** Stops reading stdout/stderr (something that escaped the group still holds them). */
  release(): void;
}

/** Sends `sig` to the process group `pid` leads; a group already gone is not an error. */
export function killGroup(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pid, sig);
  } catch {
    // ESRCH: the group is already gone.
  }
}

/** Signals that wait for the group's pid: a kill asked before the start reported it is sent on arrival. */
export class GroupSignals {
  private leader: number | undefined;
  private readonly pending: NodeJS.Signals[] = [];

  setPid(pid: number): void {
    this.leader = pid;
    for (const sig of this.pending.splice(0)) killGroup(pid, sig);
  }

  kill(sig: NodeJS.Signals): void {
    if (this.leader !== undefined) killGroup(this.leader, sig);
    else this.pending.push(sig);
  }
}

/** Spawns directly from this process (the path where no persistent launcher runs). */
export function startProcess(spec: StartSpec, on: ProcessEvents): StartedProcess {
  let pinned: { args: string[]; fds: number[] };
  try {
    pinned = spec.pins?.length ? pinBinds(fs, spec.args, spec.pins, 3) : { args: spec.args, fds: [] };
  } catch (e) {
    // A pinned bind source changed since it was checked: nothing starts, reported as a failed start.
    queueMicrotask(() => {
      on.error(e as NodeJS.ErrnoException);
      on.close();
    });
    return { kill: () => undefined, release: () => undefined };
  }
  let child;
  try {
    child = spawn(spec.program, pinned.args, { cwd: spec.cwd, env: spec.env, detached: true, stdio: ['ignore', 'pipe', 'pipe', ...pinned.fds] });
  } finally {
    for (const fd of pinned.fds) fs.closeSync(fd);
  }
  const signals = new GroupSignals();
  if (child.pid !== undefined) {
    signals.setPid(child.pid);
    on.pid(child.pid);
  }
  const [stdout, stderr] = [child.stdout!, child.stderr!];
  stdout.on('data', (c: Buffer) => on.out(1, c));
  stderr.on('data', (c: Buffer) => on.out(2, c));
  child.on('error', (err: NodeJS.ErrnoException) => on.error(err));
  child.on('exit', (code, signal) => on.exit(code, signal));
  child.on('close', () => on.close());
  return {
    kill: (sig) => signals.kill(sig),
    release: () => {
      stdout.destroy();
      stderr.destroy();
    },
  };
}
