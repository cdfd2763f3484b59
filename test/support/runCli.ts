// Runs the built CLI (dist/cli.js) to its end, for tests of what a user sees. Each command has its own deadline:
// a synchronous test cannot be stopped by mocha's timeout (mocha measures it only after it returns), so without one
// a hung command would hang the whole run, and mocha's timeout would only turn a slow pass into a failure.
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import * as path from 'node:path';

const CLI = path.resolve(__dirname, '../../dist/cli.js');

/**
 * How long one command may run before it is killed and its test fails naming it: a deadline for a hang, not a
 * performance goal (those are in `npm run bench`). At load 20 on 2 cores one `validate` of the 12-skill corpus took
 * over 10 s (1 s at load 15, 0.3 s of CPU), so tests of several commands outgrew mocha's 20 s default.
 */
export const CLI_DEADLINE_MS = 60_000;

/** A mocha timeout for tests that each run at most `commands` commands (each may use its whole deadline). */
export function cliTestTimeout(commands: number): number {
  return commands * CLI_DEADLINE_MS + 10_000;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `node dist/cli.js ...args`; throws, naming the command, if it was killed at its deadline or could not start. */
export function runCli(args: readonly string[], options: Omit<SpawnSyncOptions, 'encoding' | 'timeout'> = {}): CliResult {
  const r = spawnSync(process.execPath, [CLI, ...args], { ...options, encoding: 'utf8', timeout: CLI_DEADLINE_MS, killSignal: 'SIGKILL' });
  const what = `agent-skills ${args.join(' ')}`;
  if (r.error) throw new Error(`${what}: ${(r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT' ? `still running at its ${CLI_DEADLINE_MS / 1000} s deadline, killed` : r.error.message}`);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
