/**
 * How a script is started, with or without a sandbox. A small POSIX sh program sets the file-size limit
 * and starts the script.
 *
 * Without a sandbox the runner's persistent launcher (persistentLauncher.ts) starts `sh -c SANDBOX_LAUNCHER`,
 * which execs the script: one process start per run. Where that launcher cannot start, LOCAL_LAUNCHER is
 * the fallback: it stays the script's parent, so `/proc/$PPID/environ` shows the scrubbed
 * environment the launcher was started with, never the editor's. The call's `env` is passed as arguments
 * and exported by the launcher just before it starts the script, so none of it is in effect while a
 * program outside the script's control (the shell itself) starts.
 *
 * In the sandbox bubblewrap sets the environment (`--clearenv`, `--setenv`) and the launcher, inside,
 * only sets the limit and execs the script.
 */

/** Name of the variable that tags every process of a run (found again by the process-tree sweep). */
export const RUN_MARKER_VAR = 'AGENT_SKILLS_RUN';

/**
 * $1 file-size limit in 512-byte blocks (POSIX `ulimit -f` units), $2 the process limit ({@link PROCESS_LIMIT}),
 * $3 how many NAME=VALUE words follow,
 * then those words, then the program and its arguments. The script runs as a child (not exec'd), so the
 * launcher is its parent. A status above 128 is a death by signal (sh's convention): the launcher dies by
 * the same signal, so the runner reports the signal, not 128+n (a script that itself exits 143 is then
 * reported as killed by SIGTERM: sh cannot tell the two apart).
 */
/**
 * $2, the run's process cap (processLimit.ts): a number is set as RLIMIT_NPROC soft and hard (dash names it `-p`, bash
 * `-u`), an absolute folder is a pids cgroup the launcher joins, `-` sets none. A cap that cannot be set ends the
 * launch (status 126) rather than running the script uncapped.
 */
const PROCESS_LIMIT =
  'case "$2" in -) ;; /*) echo "$$" 2>/dev/null >"$2/cgroup.procs" || { echo "agent-skills: could not join the pids cgroup $2" >&2; exit 126; };; ' +
  `*) ${setNproc('"$2"')};; esac`;

/** Sets RLIMIT_NPROC to `value` (a sh word), or ends the launch with status 126. */
function setNproc(value: string): string {
  return `{ ulimit -p ${value} || ulimit -u ${value}; } 2>/dev/null || { echo "agent-skills: could not set the process limit ${value.replace(/"/g, '')} (RLIMIT_NPROC)" >&2; exit 126; }`;
}

/**
 * No core dumps: RLIMIT_CORE 0, soft and hard (sh sets both when given neither -S nor -H), before anything of the
 * script's runs. A dump ignores the file-size limit and lands where the kernel's `core_pattern` says (a plain name:
 * the crashing process's working folder, any folder the script can write, in its run folder or not), so a script
 * that raised its own soft limit and crashed a large process wrote a file as big as that process, past the run's
 * cap. Only a process with CAP_SYS_RESOURCE can raise a hard limit again: a sandboxed script has no capability; an
 * unsandboxed script of a root runner is root and can (as it can raise the file-size limit). A `core_pattern` that
 * pipes to a program (`|/usr/lib/systemd/systemd-coredump`) is the host's: the kernel starts it whatever the limit,
 * and it writes outside every folder the script can write.
 */
export const NO_CORE_DUMPS = 'ulimit -c 0 2>/dev/null || { echo "agent-skills: could not turn core dumps off (RLIMIT_CORE 0)" >&2; exit 126; }';

export const LOCAL_LAUNCHER = [
  'ulimit -f "$1" 2>/dev/null',
  NO_CORE_DUMPS,
  PROCESS_LIMIT,
  'n=$3',
  'shift 3',
  'while [ "$n" -gt 0 ]; do export "$1"; shift; n=$((n - 1)); done',
  '"$@"',
  'st=$?',
  // Only signals whose default action ends a process on Linux and macOS alike (a stop signal would stop the launcher).
  'case $((st - 128)) in 1|2|3|4|5|6|7|8|9|10|11|12|13|14|15|24|25|26|27|30|31) trap - "$((st - 128))" 2>/dev/null; kill "-$((st - 128))" "$$";; esac',
  'exit "$st"',
].join('\n');

/** Inside the sandbox and under the persistent launcher: $1 the file-size limit in 512-byte blocks, $2 the process limit, then the program and its arguments (no core dumps: {@link NO_CORE_DUMPS}). */
export const SANDBOX_LAUNCHER = `ulimit -f "$1" 2>/dev/null; ${NO_CORE_DUMPS}; ${PROCESS_LIMIT}; shift 2; exec "$@"`;

/**
 * A prepared start (preparedStart.ts): the same limits as {@link SANDBOX_LAUNCHER} ($1 the file-size limit, $2 the
 * process limit: a root runner's pids cgroup, or `-` for an ordinary user's, whose RLIMIT_NPROC the line sets since it
 * depends on the user's count at the run), set before the run is known, in the background after the previous run:
 * joining a cgroup v1 costs a kernel grace period (~10 ms), and starting a `sh` ~1 ms, that would otherwise fall on the
 * run's own start. Then it
 * execs $3, a POSIX sh, reading commands from its standard input, where the launcher writes one line when a run takes
 * it ({@link preparedCommand}): the run's environment and folder, and the `exec` of the script, whose standard input is
 * /dev/null again. The process is the script, its own group's leader, as with a spawn. (A shell reads its script in
 * blocks; the `read` builtin would read the line a byte at a time: 1,300 reads, ~7 ms at load 35.)
 */
export const PREPARED_LAUNCHER = `ulimit -f "$1" 2>/dev/null; ${NO_CORE_DUMPS}; ${PROCESS_LIMIT}; exec "$3" -s`;

/** A name sh can `export` (others make the line fail: {@link preparedCommand} refuses them). */
const SH_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Names a shell sets itself as it starts, whatever its environment holds (dash: PWD, PPID, IFS, OPTIND; bash as sh also
 * UID, EUID, SHELLOPTS, BASHOPTS, BASH_*, readonly there): a spawned sh would replace or refuse the run's value, an
 * `export` would keep or fail on it. A run whose environment names one is spawned as before, not started prepared.
 */
const SHELL_OWN = /^(PWD|PPID|IFS|OPTIND|UID|EUID|GROUPS|SHELLOPTS|BASHOPTS|BASH_.*|BASH)$/;

/** `text` as one single-quoted sh word (a `'` leaves the quotes as `'\''`; a newline inside them is part of the word). */
function shWord(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

/**
 * The line a prepared start runs for a run: RLIMIT_NPROC set to `nproc` when the start set no process limit ahead (an
 * ordinary user's, processLimit.ts; it fails the run with status 126 as the spawned launcher does), `cd` into `cwd`, `env` exported (the prepared sh starts with an empty
 * environment; the PWD it exports is `cwd`'s, as a spawned sh's is, and the OLDPWD of its `cd` is dropped), then `exec`
 * of `argv`. Every word is single-quoted, so nothing in a value or an argument is expanded or run by the shell.
 * Undefined when `env` names a variable sh cannot export or sets itself ({@link SHELL_OWN}), or the line is longer than
 * {@link PREPARED_LINE_MAX}: that run is spawned.
 */
export function preparedCommand(argv: readonly string[], env: Readonly<Record<string, string>>, cwd: string, nproc?: number): string | undefined {
  const names = Object.keys(env);
  if (names.some((k) => !SH_NAME.test(k) || SHELL_OWN.test(k)) || argv.length === 0) return undefined;
  if (nproc !== undefined && !(Number.isSafeInteger(nproc) && nproc > 0)) return undefined;
  const exports = names.map((k) => `export ${k}=${shWord(env[k])}`);
  const limit = nproc === undefined ? [] : [setNproc(String(nproc))];
  const line = [...limit, `cd -P -- ${shWord(cwd)} || exit 126`, 'unset OLDPWD', ...exports, `exec ${argv.map(shWord).join(' ')} </dev/null`].join('; ');
  return Buffer.byteLength(line) <= PREPARED_LINE_MAX ? line : undefined;
}

/**
 * The longest line a prepared start is given (bytes): a spawn reports arguments too big for the system as E2BIG
 * (runRequest.ts argumentsTooBig), where an `exec` in sh would only fail. A longer run is spawned.
 */
export const PREPARED_LINE_MAX = 16384;

/** 512-byte blocks for a byte limit, rounded up (what `ulimit -f` takes in sh). */
export function fileSizeBlocks(bytes: number): string {
  return String(Math.max(1, Math.ceil(bytes / 512)));
}

/** Program, arguments and environment of the process the runner spawns. */
export interface Launch {
  program: string;
  args: string[];
  env: Record<string, string>;
  /** Indices of bind options in `args` whose sources are opened and bound as descriptors when spawned (bindFds.ts). */
  pins?: number[];
}

/**
 * The local launch: `sh -c LOCAL_LAUNCHER` started with `baseEnv` (the scrubbed host variables and the
 * runtime's own), the call's `callEnv` as arguments. `runtimeEnv` names set by the runtime win over the
 * call's, as they always have: the launcher exports the call's first and then re-exports the runtime's.
 */
export function localLaunch(sh: string, argv: readonly string[], baseEnv: Record<string, string>, callEnv: Readonly<Record<string, string>>, runtimeNames: readonly string[], maxFileBytes: number, processLimit: string): Launch {
  const words = Object.entries(callEnv).filter(([k]) => !runtimeNames.includes(k)).map(([k, v]) => `${k}=${v}`);
  return { program: sh, args: ['-c', LOCAL_LAUNCHER, 'agent-skills-launcher', fileSizeBlocks(maxFileBytes), processLimit, String(words.length), ...words, ...argv], env: baseEnv };
}

/** `sh` with SANDBOX_LAUNCHER, then the script's argv (after bubblewrap's arguments, or as the persistent launcher's start). */
export function sandboxedCommand(sh: string, argv: readonly string[], maxFileBytes: number, processLimit: string): string[] {
  return [sh, '-c', SANDBOX_LAUNCHER, 'agent-skills-launcher', fileSizeBlocks(maxFileBytes), processLimit, ...argv];
}
