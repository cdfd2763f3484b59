// Runs the built CLI (dist/cli.js) to its end, for tests of what a user sees. Each command's WORK is bounded in CPU
// time by the kernel (RLIMIT_CPU, set with the shell's `ulimit -St` before the CLI starts: SIGXCPU past it), which a
// loaded machine does not stretch; a wall-clock deadline stays only as a hang guard. A synchronous test cannot be
// stopped by mocha's timeout (mocha measures it only after it returns), so without that guard a hung command would
// hang the whole run.
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import * as path from 'node:path';

const CLI = path.resolve(__dirname, '../../dist/cli.js');

/**
 * CPU seconds one command may use (its own process; the CLI these tests run starts no others). The costliest here,
 * `validate` of the 12-skill corpus, is about 0.3 s of CPU (1 s by the clock at load 15, over 10 s at load 20).
 */
export const CLI_CPU_SECONDS = 20;

/**
 * How long one command may run by the clock before it counts as hung, is killed and its test fails naming it: far
 * above a loaded run (a 2-core machine at load 40 gives a process about 1/20 of a core: 20 s for 1 s of CPU).
 */
export const CLI_DEADLINE_MS = 300_000;

/** A mocha timeout for tests that each run at most `commands` commands (each may use its whole deadline). */
export function cliTestTimeout(commands: number): number {
  return commands * CLI_DEADLINE_MS + 10_000;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `node dist/cli.js ...args`; throws, naming the command, if it was killed at its CPU budget or deadline, or could not start. */
export function runCli(args: readonly string[], options: Omit<SpawnSyncOptions, 'encoding' | 'timeout'> = {}): CliResult {
  const r = spawnSync('/bin/sh', ['-c', 'ulimit -St "$0" && exec "$@"', String(CLI_CPU_SECONDS), process.execPath, CLI, ...args], {
    ...options,
    encoding: 'utf8',
    timeout: CLI_DEADLINE_MS,
    killSignal: 'SIGKILL',
  });
  const what = `agent-skills ${args.join(' ')}`;
  if (r.error) throw new Error(`${what}: ${(r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT' ? `still running at its ${CLI_DEADLINE_MS / 1000} s deadline by the clock (a hang guard), killed` : r.error.message}`);
  if (r.signal === 'SIGXCPU') throw new Error(`${what}: used its ${CLI_CPU_SECONDS} s of CPU, killed by the kernel (RLIMIT_CPU); stderr: ${r.stderr.slice(-2000)}`);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
