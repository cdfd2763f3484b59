import type { Launch } from '../launcher';
import type { ProgramResolver } from '../interpreters';
import type { SandboxPolicy } from '../execTypes';
import type { SandboxUser } from '../sandboxView';
import type { RunFolders } from './mountPlan';

/**
 * A sandbox backend: one platform mechanism that isolates a script run. It owns its probe (does it work
 * here?), its launch (the mount plan and the program that applies it), which programs it may show, and its
 * wording. The runner asks the backend registry (registry.ts), never a mechanism by name; a new backend is
 * one file plus one line there.
 */
export interface SandboxBackend {
  /** The mechanism's name as users see it (`bubblewrap`), also SandboxStatus.mechanism. */
  readonly id: string;
  /** Platforms (`process.platform`) it is for. */
  readonly platforms: readonly NodeJS.Platform[];
  /** Whether it works here, tried once with the isolation a run uses. */
  probe(env: ProbeEnv): Promise<SandboxProbe>;
  /**
   * The process to start for one run: the mechanism's program with its arguments, then the script. Absent
   * for a backend that isolates nothing ("none"): the runner then starts the script itself (runLaunch.ts).
   */
  launch?(spec: SandboxLaunch, probe: SandboxProbe): Launch;
  /**
   * Its runs' processes are counted apart from the user's others (a user namespace of their own): the process cap is
   * then the run's allowance alone, else the user's count now plus it (processLimit.ts).
   */
  readonly ownProcessCount?: boolean;
  /** What it isolates (or, for "none", what the script can do), in words a user can check (README "Script sandbox" says the same). */
  readonly guarantees: string;
  /** What to do when it is required but does not work here (the end of the refusal). */
  readonly whenUnavailable?: string;
}

/** Whether a backend can be used here, and why not. */
export interface SandboxProbe {
  available: boolean;
  /** The backend that answered. */
  backend?: string;
  program?: string;
  reason?: string;
  /**
   * What the backend learned about its mechanism here (a version's options, how it drops privileges), read only
   * by its own `launch`: the runner and every other file leave it alone, so a backend's options stay in its file.
   */
  options?: unknown;
  /**
   * The host account a run's sandbox becomes (a root runner's drops to one): the runner hands the run's writable
   * folders to it before the start.
   */
  handsOver?: { uid: number; gid: number };
  /** Protections a run in this sandbox lacks here, each a sentence naming it and why (status, confirmation and result say them). */
  missing?: string[];
}

/**
 * Runs a program to completion: its exit code (null when it could not start) and its output. `pins` are indices of
 * arguments whose files the spawner opens and passes as descriptors, as for a run (sandbox/bindFds.ts).
 */
export type ProbeRun = (program: string, args: string[], pins?: number[]) => Promise<{ code: number | null; output: string }>;

/** What a probe may use: the runner's PATH lookups, a way to run a trial, and a folder of its own. */
export interface ProbeEnv {
  resolver: ProgramResolver;
  run: ProbeRun;
  /** The runner's state folder (a probe writes its trial files under `probe/`). */
  stateDir: string;
  user: SandboxUser;
  /** Writes `dir/passwd` and `dir/group` for the sandbox user with `home`; returns `dir`. */
  identityDir(dir: string, home: string): string;
}

/** One run, as the runner made it: its folders, its programs and its environment. */
export interface SandboxLaunch {
  run: RunFolders;
  /** The script's argv (absolute program first). */
  argv: readonly string[];
  /** The POSIX shell that applies the file-size limit inside. */
  sh: string;
  user: SandboxUser;
  cwd: string;
  /** The script's whole environment. */
  env: Readonly<Record<string, string>>;
  maxFileBytes: number;
  /** RLIMIT_NPROC the launcher sets inside (processLimit.ts), `-` for none. */
  processLimit: string;
  /** The runner's state folder: never shown, except the run's own parts. */
  stateDir: string;
  /** The skill's own folder on the host: never a bind source. */
  skillRoot?: string;
}

/**
 * Whether a run would be sandboxed, from the same probe the runner decides with: what a confirmation
 * shows before the run, and what the run then does.
 */
export interface SandboxStatus {
  policy: SandboxPolicy;
  /** The run will be isolated. */
  sandboxed: boolean;
  /** With `required` and no working sandbox: the run will be refused. */
  refused: boolean;
  /** What isolates the run (a backend's id), when sandboxed. */
  mechanism?: string;
  /** The sandbox program, when sandboxed. */
  program?: string;
  /** Why the run will not be sandboxed. */
  reason?: string;
  /** The backend that was tried and does not work here (its id), when not sandboxed. */
  tried?: string;
  /** Sandboxed, but without these protections here (each names the protection and why): said with the status. */
  missing?: string[];
}
