import type { CommandHelp } from './commandHelp';

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
