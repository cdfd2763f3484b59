/**
 * Public types of the script-execution engine. Field names of results are snake_case because they
 * go to the model as tool results unchanged (seed 004's `skill_run` output shape).
 */

/** One file to stage into the run's workspace before the script starts (seed 004 `inputs`). */
export interface InputSpec {
  /**
   * Source: `workspace://rel/path` (the host workspace folder given as `workspaceDir`),
   * `skill://<name>/rel/path` (resolved with `resolveSkillRoot`), `artifact://name[@version]`
   * (the artifact store), or `host:///abs/path` (only under an `allowedHostPaths` entry).
   */
  from: string;
  /** Workspace-relative destination; defaults to `inputs/<basename>`. Must not leave the workspace or enter `skills/`. */
  to?: string;
  /** `copy` (default) or `link` (a symlink to the source; read-only in the sandbox). */
  mode?: 'copy' | 'link';
}

/** Which files to bring back after the run (seed 004 `outputs`). */
export interface OutputsSpec {
  /** Workspace-relative globs (`**` allowed); `$OUTPUT_DIR/x` and `${OUTPUT_DIR}/x` mean `out/x`, likewise WORK_DIR, RUN_DIR, WORKSPACE_DIR. */
  globs: string[];
  /** Inline text content into the result (default true). Binary files never inline. */
  inline?: boolean;
  /** Save every collected file as a versioned artifact (default false). */
  save?: boolean;
  /** Prefix for artifact names, e.g. `reports/` (default empty). */
  name_template?: string;
  /** At most this many files (default from options, 100). */
  max_files?: number;
  /** Read at most this many bytes per file (default 4 MiB). */
  max_file_bytes?: number;
  /** Read at most this many bytes in total (default 64 MiB). */
  max_total_bytes?: number;
}

/** Where and how the script is isolated. `auto` sandboxes when bwrap is present. */
export type SandboxPolicy = 'auto' | 'off' | 'required';

/**
 * One script or command execution: exactly one of `script` and `command`, held by the type (the run_script tool's
 * input schema is where a model's call is refused for giving both or neither; the runner does not ask again).
 */
export type RunRequest = RunRequestFields & ({ script: string; command?: undefined } | { command: string; script?: undefined });

/** What a run request holds besides its script or command. */
export interface RunRequestFields {
  /** The skill's name (used for SKILL_NAME, the staged folder name and the dependency folder). */
  skillName: string;
  /** Absolute root directory of the skill on the host. */
  skillRoot: string;
  /**
   * A folder laid out like the skill's, holding newer versions of some of its files (the edits of a read-only
   * plugin or pack skill): in the run's copy its files replace the skill's and add to them. Ignored when missing.
   */
  overlayRoot?: string;
  /** A file under the skill root, relative to it, e.g. `scripts/extract.py`. */
  script?: string;
  /** A command line run in the workspace: by `bash -c` without command lists, else as one argv without a shell. */
  command?: string;
  /** Arguments after the script (ignored for `command`). */
  args?: string[];
  /** Extra environment variables for the script; they win over the scrubbed host environment. */
  env?: Record<string, string>;
  /** Working directory: relative to the staged skill root, or starting with `$WORK_DIR`, `$OUTPUT_DIR`, `$WORKSPACE_DIR`, `$RUN_DIR`, `$SKILLS_DIR`. */
  cwd?: string;
  /** Timeout in milliseconds, positive (default `defaultTimeoutMs`; at most `maxTimeoutMs`). */
  timeoutMs?: number;
  inputs?: InputSpec[];
  outputs?: OutputsSpec;
  /** Return metadata only: no `content` on output files. */
  omitInlineContent?: boolean;
  /** Sandbox policy for this run (default the runner's `sandbox` option, itself `auto`). */
  sandbox?: SandboxPolicy;
  /** Cancels the run: the process tree is killed as on a timeout. */
  signal?: AbortSignal;
  /** The Agent Plugin the skill comes from: its root is shown read-only and its data folder writable. */
  plugin?: PluginRunContext;
  /**
   * Whose artifacts the run sees (ArtifactStore.scoped): outputs it saves and `artifact://` inputs are that scope's
   * only. Undefined: the runner's one store (one user: the editor, the CLI, a stdio server).
   */
  artifactScope?: string;
}

/**
 * What a run of a plugin skill gets of its plugin (Agent Plugins 1.0 §9.1): `PLUGIN_ROOT` (read-only in the
 * sandbox) and `PLUGIN_DATA` (created before the run, writable, kept across runs and plugin updates), plus
 * the names a host layout's scripts expect (`CLAUDE_PLUGIN_ROOT`...). A call's `env` cannot replace them.
 */
export interface PluginRunContext {
  /** Absolute path of the plugin folder. */
  root: string;
  /** Absolute path of the plugin's data folder (created when missing). */
  dataDir: string;
  /** Extra variable names and which of the two values each takes (e.g. `CLAUDE_PLUGIN_DATA: 'data'`). */
  aliases?: Readonly<Record<string, 'root' | 'data' | 'skill'>>;
}

/**
 * What a runner's check found a run will reach beyond its own folders: a plugin skill's run reads its plugin's folder
 * and writes its data folder, kept across runs (the `HOME` of the plugin's MCP servers, which run unsandboxed).
 */
export interface CheckedRun {
  plugin?: PluginRunContext;
}

/** A collected output file. */
export interface OutputFile {
  /** Workspace-relative path, e.g. `out/report.txt`. */
  name: string;
  /** `artifact://name@version` when saved, else `run://<run_id>/<name>` (valid while the run folder is kept). */
  ref: string;
  mime_type: string;
  size_bytes: number;
  /** Inline text (absent for binary files, with `omit_inline_content`, or when `inline` is false). */
  content?: string;
  /** True when `content` holds less than the whole file (an inline or read cap was hit). */
  truncated: boolean;
}

/** A saved artifact version. */
export interface ArtifactFile {
  name: string;
  version: number;
  ref: string;
}

/** Time spent in each phase, in milliseconds. */
export interface RunPhases {
  create: number;
  stage: number;
  run: number;
  collect: number;
  cleanup: number;
}

/** The structured result of one run. A non-zero exit is a result, not an error. */
export interface RunResult {
  run_id: string;
  /** The exit code, or null when the process died by a signal. */
  exit_code: number | null;
  /** The signal that ended the process, if any. */
  signal: string | null;
  stdout: string;
  stderr: string;
  stdout_truncated: boolean;
  stderr_truncated: boolean;
  timed_out: boolean;
  cancelled: boolean;
  duration_ms: number;
  phases: RunPhases;
  /** The argv actually spawned (inside the sandbox when sandboxed). */
  argv: string[];
  /** `sandbox` when bubblewrap isolated the run, else `local`. */
  execution_mode: 'local' | 'sandbox';
  sandboxed: boolean;
  /** Why the run was not sandboxed (absent when it was). */
  sandbox_reason?: string;
  /** Sandboxed, but without these protections here, each naming the protection and why (absent when none is missing). */
  sandbox_missing?: string[];
  /** The cap on the run's processes and threads, as it was applied, or why there was none. */
  processes: string;
  output_files: OutputFile[];
  primary_output?: OutputFile;
  artifact_files: ArtifactFile[];
  warnings: string[];
}
