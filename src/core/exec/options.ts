import { localDisk } from '../host/localDisk';
import type { SyncSkillsHost } from '../host/skillsHost';
import type { SandboxPolicy } from './execTypes';

/** Configuration of a script runner. Only `stateDir` is required. */
export interface ScriptRunnerOptions {
  /**
   * Folder the runner owns: `runs/` (one workspace per run), `skills/` (read-only snapshots of skill
   * trees), `deps/` (per-skill dependency folders and HOME, kept between runs), `artifacts/`.
   */
  stateDir: string;
  /**
   * Where skill folders (a run's `skillRoot`) and overlays (`overlayRoot`) are read: the host the skills were
   * found in, so a skill that lives only there (in memory, remote) runs too. Default the local disk (`localDisk`).
   * Only the source is read through it: the runner's snapshots, workspaces, outputs and artifacts are on the disk,
   * where a script's process can see them.
   */
  files?: SyncSkillsHost;
  /** When non-empty, `command` runs without a shell and its program must be on this list (base names, e.g. `python3`). */
  allowedCommands?: readonly string[];
  /** When non-empty, `command` runs without a shell and its program must not be on this list. */
  deniedCommands?: readonly string[];
  /** Host environment variables passed on top of the built-in allowlist (PATH, LANG, LC_*, TERM, TZ, USER, ...). */
  envAllowlist?: readonly string[];
  /** Host folders from which `host://` inputs may be staged (the user's choice; empty means none). */
  allowedHostPaths?: readonly string[];
  /** The editor's workspace folder, source of `workspace://` inputs. */
  workspaceDir?: string;
  /**
   * The host's own state folders (sessions, audit log, handles, other runs): no `workspace://` or `host://` input
   * may come from inside one or hold one, even when the workspace or an allowed host folder contains it. The
   * runner's `stateDir` is always one of them.
   */
  privateDirs?: readonly string[];
  /** Maps a skill name to its root folder, for `skill://<name>/...` inputs. */
  resolveSkillRoot?: (name: string) => string | undefined | Promise<string | undefined>;
  /** Default timeout when a call gives none (ms, default 60 000). */
  defaultTimeoutMs?: number;
  /** Longest timeout a call may ask for (ms, default 600 000). */
  maxTimeoutMs?: number;
  /** Between SIGTERM and SIGKILL of a timed-out process group (ms, default 1000). */
  killGraceMs?: number;
  /** Bytes of stdout kept (default 64 KiB); the rest is dropped and `stdout_truncated` set. */
  stdoutCap?: number;
  /** Bytes of stderr kept (default 64 KiB). */
  stderrCap?: number;
  /** Output files collected at most (default 100, seed 004). */
  maxFiles?: number;
  /** Bytes read per output file at most (default 4 MiB, seed 004). */
  maxFileBytes?: number;
  /** Bytes read over all output files at most (default 64 MiB, seed 004). */
  maxTotalBytes?: number;
  /** Inline text per output file (default 16 KiB). */
  inlineFileBytes?: number;
  /** Inline text over all output files (default 64 KiB). */
  inlineTotalBytes?: number;
  /** Default sandbox policy (default `auto`: sandbox when bwrap works). */
  sandbox?: SandboxPolicy;
  /** Names inside the staged skill that link to persistent writable per-skill folders (default `.venv`, `node_modules`). */
  dependencyDirs?: readonly string[];
  /** Finished run folders kept for `run://` refs and debugging (default 10; 0 removes each after its run). */
  keepRuns?: number;
  /**
   * Disk bytes one run folder may hold (default 512 MiB). Checked while the script runs and when it ends;
   * a run past it is stopped and its folder removed, and the result says so. Also the largest file any
   * run may write (the launcher's file-size limit).
   */
  maxRunBytes?: number;
  /** Disk bytes a skill's persistent HOME and dependency folders may hold together (default 2 GiB); a run past it is stopped. */
  maxHomeBytes?: number;
  /** How long stdout/stderr are still read once the script's main process has exited (ms, default 500). */
  pipeGraceMs?: number;
  /**
   * Processes and threads one run may have at once (default 512): a fork bomb stops there (processLimit.ts; the
   * result's `processes` says how it was applied, or why not).
   */
  maxRunProcesses?: number;
  /** Script runs at once at most (default 8); more wait in a queue, in order, and the result says how long. */
  maxConcurrentRuns?: number;
  /** Runs that may wait for a slot (default 32); past that a run is refused (`runner_busy`) before anything starts. */
  maxQueuedRuns?: number;
  /** PATH used to find interpreters and bwrap (default the process's PATH). */
  searchPath?: string;
}

/** Options with every default filled in. */
export type ResolvedOptions = Required<Omit<ScriptRunnerOptions, 'workspaceDir' | 'resolveSkillRoot'>> &
  Pick<ScriptRunnerOptions, 'workspaceDir' | 'resolveSkillRoot'>;

const KiB = 1024;
const MiB = 1024 * KiB;

/** Fills defaults. */
export function resolveOptions(o: ScriptRunnerOptions): ResolvedOptions {
  return {
    stateDir: o.stateDir,
    files: o.files ?? localDisk,
    allowedCommands: o.allowedCommands ?? [],
    deniedCommands: o.deniedCommands ?? [],
    envAllowlist: o.envAllowlist ?? [],
    allowedHostPaths: o.allowedHostPaths ?? [],
    workspaceDir: o.workspaceDir,
    privateDirs: [...(o.privateDirs ?? []), o.stateDir],
    resolveSkillRoot: o.resolveSkillRoot,
    defaultTimeoutMs: o.defaultTimeoutMs ?? 60_000,
    maxTimeoutMs: o.maxTimeoutMs ?? 600_000,
    killGraceMs: o.killGraceMs ?? 1000,
    stdoutCap: o.stdoutCap ?? 64 * KiB,
    stderrCap: o.stderrCap ?? 64 * KiB,
    maxFiles: o.maxFiles ?? 100,
    maxFileBytes: o.maxFileBytes ?? 4 * MiB,
    maxTotalBytes: o.maxTotalBytes ?? 64 * MiB,
    inlineFileBytes: o.inlineFileBytes ?? 16 * KiB,
    inlineTotalBytes: o.inlineTotalBytes ?? 64 * KiB,
    sandbox: o.sandbox ?? 'auto',
    dependencyDirs: o.dependencyDirs ?? ['.venv', 'node_modules'],
    keepRuns: o.keepRuns ?? 10,
    maxRunBytes: o.maxRunBytes ?? 512 * MiB,
    maxHomeBytes: o.maxHomeBytes ?? 2048 * MiB,
    pipeGraceMs: o.pipeGraceMs ?? 500,
    maxRunProcesses: Math.max(1, Math.floor(o.maxRunProcesses ?? 512)),
    maxConcurrentRuns: Math.max(1, o.maxConcurrentRuns ?? 8),
    maxQueuedRuns: Math.max(0, o.maxQueuedRuns ?? 32),
    searchPath: o.searchPath ?? process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
  };
}
