import { asksForHelp, commandHelpText, mainHelpText } from './commandHelp';
import { printableLines } from './terminalText';
import { allCommands, findCommand } from './commands';
import { UsageError } from './usageError';
import { cliVersion } from './version';

/** `agent-skills`: the runtime's command-line front end. Exit 0 ok, 1 a finding/failure, 2 a usage error. */
async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    const about = name === 'help' && rest[0] ? findCommand(rest[0]) : undefined;
    if (name === 'help' && rest[0] && !about) {
      process.stderr.write(`agent-skills: unknown command '${rest[0]}'. Run 'agent-skills --help' for the list.\n`);
      return 2;
    }
    process.stdout.write(about ? commandHelpText(about) : mainHelpText(allCommands()));
    return name ? 0 : 2;
  }
  if (name === '--version') {
    process.stdout.write(`${cliVersion()}\n`);
    return 0;
  }
  const command = findCommand(name);
  if (!command) {
    process.stderr.write(`agent-skills: unknown command '${name}'. Run 'agent-skills --help' for the list.\n`);
    return 2;
  }
  if (asksForHelp(command, rest)) {
    process.stdout.write(commandHelpText(command));
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`agent-skills ${name}: ${printableLines(e.message)}\nusage: agent-skills ${command.usage}\nRun 'agent-skills ${name} --help' for the options and exit codes.\n`);
      return 2;
    }
    process.stderr.write(`agent-skills ${name}: ${printableLines((e as Error).message)}\n`);
    return 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`agent-skills: ${(e as Error).stack ?? e}\n`);
    process.exitCode = 1;
  },
);
