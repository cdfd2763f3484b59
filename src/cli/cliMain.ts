import { allCommands, findCommand, type CliCommand } from './commands';
import { UsageError } from './usageError';
import { cliVersion } from './version';

/** `agent-skills`: the runtime's command-line front end. Exit 0 ok, 1 a finding/failure, 2 a usage error. */
async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(helpText(allCommands()));
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
  try {
    return await command.run(rest);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`agent-skills ${name}: ${e.message}\nusage: agent-skills ${command.usage}\n`);
      return 2;
    }
    process.stderr.write(`agent-skills ${name}: ${(e as Error).message}\n`);
    return 1;
  }
}

function helpText(list: readonly CliCommand[]): string {
  return [
    'usage: agent-skills <command> [options]',
    '',
    ...list.flatMap((c) => [`  agent-skills ${c.usage}`, `      ${c.summary}`, '']),
    'Exit codes: 0 success, 1 invalid skills or a failed operation, 2 usage error.',
    '',
  ].join('\n');
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
