import { archiveCommand } from './commands/archive';
import { createCommand } from './commands/create';
import { historyCommand } from './commands/history';
import { inspectCommand } from './commands/inspect';
import { listCommand } from './commands/list';
import { mcpCommand } from './commands/mcp';
import { patchCommand } from './commands/patch';
import { promptCommand } from './commands/prompt';
import { readPropertiesCommand } from './commands/readProperties';
import { restoreCommand } from './commands/restore';
import { explainCommand, rulesCommand } from './commands/rules';
import { runCommand } from './commands/run';
import { sessionCommand } from './commands/session';
import { validateCommand } from './commands/validate';

/** One `agent-skills` subcommand. Each lives in its own file under src/cli/commands/. */
export interface CliCommand {
  name: string;
  /** e.g. `validate <path>... [--strict] [--json]` */
  usage: string;
  summary: string;
  /** Returns the exit code. Throw UsageError for bad arguments. */
  run(args: string[]): Promise<number>;
}

// Each command file exports one CliCommand; add yours to this list (one import, one entry).
export const commands: CliCommand[] = [validateCommand, readPropertiesCommand, promptCommand, listCommand, runCommand, sessionCommand, inspectCommand, patchCommand, createCommand, historyCommand, restoreCommand, archiveCommand, rulesCommand, explainCommand, mcpCommand];
