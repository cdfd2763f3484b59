/**
 * What `agent-skills <command> --help` prints besides the usage line and summary, declared in each command's
 * file next to the options it parses: one `[option as written, what it does]` row per option, and the exit codes
 * the command returns (the usage error, 2, is added for every command).
 */
export interface CommandHelp {
  options: readonly (readonly [string, string])[];
  exitCodes: readonly (readonly [number | string, string])[];
  /**
   * Arguments after the command's positionals are passed on (to a script): only the options before the first
   * positional are the command's, so a `--help` meant for the script is not taken for the command's own.
   */
  passesArgs?: boolean;
}

/** One `agent-skills` subcommand. Each lives in its own file under src/cli/commands/. */
export interface CliCommand {
  name: string;
  /** e.g. `validate <path>... [--strict] [--json]` */
  usage: string;
  summary: string;
  /** Options and exit codes for `agent-skills <name> --help`, declared next to the options the command parses. */
  help: CommandHelp;
  /** Returns the exit code. Throw UsageError for bad arguments. */
  run(args: string[]): Promise<number>;
}
