import { spawn, type ChildProcess } from 'node:child_process';
import { asBuffer } from '../host/skillsHost';
import { selfNodeEnv } from './interpreters';
import { NO_CORE_DUMPS } from './launcher';
import { LAUNCHER_PROGRAM } from './launcherProgram';
import type { TaskCount } from './taskCount';
import { GroupSignals, type ProcessEvents, type StartedProcess, type StartSpec } from './startedProcess';

interface LauncherMessage {
  t: 'ready' | 'pid' | 'out' | 'exit' | 'close' | 'error' | 'count';
  id?: number;
  pid?: number;
  fd?: 1 | 2;
  data?: Uint8Array;
  code?: number | string | null;
  signal?: string | null;
  message?: string;
  count?: TaskCount;
}

/**
 * One long-lived launcher process per runner (see launcherProgram.ts), started on the first run that needs
 * it, so a run costs one process start, as a raw spawn does, while the script's parent still holds only an
 * empty environment. Runs are multiplexed over its IPC channel; while none is in flight the channel and
 * the process are unref'd, so the launcher never keeps the runner's process alive. If it dies, the runs in
 * flight end with an error and the next run starts a new one.
 */
export class PersistentLauncher {
  private child: ChildProcess | undefined;
  private ready: Promise<boolean> | undefined;
  private readonly runs = new Map<number, { on: ProcessEvents; signals: GroupSignals; exited: boolean }>();
  private nextId = 1;
  /** Counts of a user's tasks asked for and not answered yet (taskCount.ts). */
  private readonly counts = new Map<number, (count: TaskCount | undefined) => void>();

  /** The file-size limit (512-byte blocks) the running launcher and so every run it starts has. */
  limitBlocks: string | undefined;

  /**
   * Starts the launcher if none runs, through `sh` so that it gets the file-size limit `blocks` (Node
   * cannot set it; the scripts inherit it, which spares each run a `sh` of its own); false when it cannot
   * start here (the caller uses another way).
   */
  start(sh: string, blocks: string): Promise<boolean> {
    if (this.ready) return this.ready;
    this.limitBlocks = blocks;
    const env = selfNodeEnv(process.execPath);
    let child: ChildProcess;
    try {
      // Without core dumps (NO_CORE_DUMPS) too: the scripts it starts directly inherit the hard limit 0.
      child = spawn(sh, ['-c', `ulimit -f "$1" 2>/dev/null; ${NO_CORE_DUMPS}; shift; exec "$@"`, 'agent-skills-launcher', blocks, process.execPath, '-e', LAUNCHER_PROGRAM], { env, cwd: '/', stdio: ['ignore', 'ignore', 'ignore', 'ipc'], serialization: 'advanced' });
    } catch {
      return (this.ready = Promise.resolve(false));
    }
    this.child = child;
    const ready = new Promise<boolean>((resolve) => {
      child.on('message', (m: LauncherMessage) => (m.t === 'ready' ? resolve(true) : this.dispatch(m)));
      child.on('error', () => resolve(false));
      child.on('exit', () => {
        resolve(false);
        this.lost(child);
      });
    });
    this.ready = ready;
    // Referenced until it answers (a runner awaiting it must not see its process exit meanwhile).
    void ready.then(() => this.runs.size === 0 && this.counts.size === 0 && this.idle());
    return ready;
  }

  /** Starts `spec` through the launcher; call {@link start} first and only when it said true. */
  run(spec: StartSpec, on: ProcessEvents): StartedProcess {
    const child = this.child!;
    const id = this.nextId++;
    const signals = new GroupSignals();
    this.runs.set(id, { on, signals, exited: false });
    this.busy();
    child.send({ t: 'start', id, program: spec.program, args: spec.args, cwd: spec.cwd, env: spec.env, caps: spec.caps, marker: spec.marker, pins: spec.pins, cgroup: spec.cgroup, prepared: spec.prepared });
    return {
      kill: (sig) => signals.kill(sig),
      release: () => {
        if (this.child === child && child.connected) child.send({ t: 'release', id });
      },
    };
  }

  /**
   * Spawns a prepared start (launcher.ts PREPARED_LAUNCHER with `args`, in `cgroup`) for a later {@link run} to take by
   * the id returned; undefined when the launcher is not running. Call {@link start} first and only when it said true.
   */
  prepare(program: string, args: string[], cgroup: string | undefined): number | undefined {
    const child = this.child;
    if (!child?.connected) return undefined;
    const id = this.nextId++;
    child.send({ t: 'prepare', id, program, args, cgroup });
    return id;
  }

  /**
   * A count of `uid`'s tasks taken in the launcher's process (taskCount.ts), off the runner's event loop; undefined when
   * the launcher is not running or could not count. The launcher is referenced until it answers, as for a run: a
   * caller awaiting the count must not see its process exit meanwhile (an unreferenced wait let the CLI's `run` exit
   * with 0 before it could pass on the script's exit code).
   */
  count(uid: number): Promise<TaskCount | undefined> {
    const child = this.child;
    if (!child?.connected) return Promise.resolve(undefined);
    const id = this.nextId++;
    this.busy();
    return new Promise((resolve) => {
      this.counts.set(id, resolve);
      child.send({ t: 'count', id, uid });
    });
  }

  /** Kills prepared start `id` (no run will take it). */
  discard(id: number): void {
    if (this.child?.connected) this.child.send({ t: 'discard', id });
  }

  /** Ends the launcher (the runs it started are killed by it as its channel closes). */
  stop(): void {
    this.child?.disconnect?.();
  }

  private dispatch(m: LauncherMessage): void {
    if (m.t === 'count') {
      const answer = this.counts.get(m.id!);
      this.counts.delete(m.id!);
      if (this.runs.size === 0 && this.counts.size === 0) this.idle();
      answer?.(m.count);
      return;
    }
    const r = m.id === undefined ? undefined : this.runs.get(m.id);
    if (!r) return;
    switch (m.t) {
      case 'pid':
        r.signals.setPid(m.pid!);
        r.on.pid(m.pid!);
        break;
      case 'out': {
        const d = m.data!;
        r.on.out(m.fd!, asBuffer(d));
        break;
      }
      case 'error': {
        const err: NodeJS.ErrnoException = new Error(m.message ?? 'spawn failed');
        if (typeof m.code === 'string') err.code = m.code;
        r.on.error(err);
        break;
      }
      case 'exit':
        r.exited = true;
        r.on.exit(typeof m.code === 'number' ? m.code : null, m.signal ?? null);
        break;
      case 'close':
        this.runs.delete(m.id!);
        r.on.close();
        if (this.runs.size === 0 && this.counts.size === 0) this.idle();
        break;
    }
  }

  /** The launcher died: its runs end now (their groups killed), and the next run starts a new one. */
  private lost(child: ChildProcess): void {
    if (this.child !== child) return;
    this.child = undefined;
    this.ready = undefined;
    const runs = [...this.runs.values()];
    this.runs.clear();
    for (const answer of this.counts.values()) answer(undefined);
    this.counts.clear();
    for (const r of runs) {
      r.signals.kill('SIGKILL');
      if (!r.exited) {
        const err: NodeJS.ErrnoException = new Error('the script launcher ended during the run');
        err.code = 'ELAUNCHER';
        r.on.error(err);
      }
      r.on.close();
    }
  }

  private busy(): void {
    this.child?.ref();
    (this.child?.channel as { ref?: () => void } | undefined)?.ref?.();
  }

  private idle(): void {
    this.child?.unref();
    (this.child?.channel as { unref?: () => void } | undefined)?.unref?.();
  }
}
