/** One `agent-skills` subcommand. Each lives in its own file under src/cli/commands/. */
export interface CliCommand {
  name: string;
  /** e.g. `validate <path>... [--strict] [--json]` */
  usage: string;
  summary: string;
  /** Returns the exit code. Throw UsageError for bad arguments. */
  run(args: string[]): Promise<number>;
}
