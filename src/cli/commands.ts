import type { CliCommand } from './cliCommand';

export type { CliCommand } from './cliCommand';
/** A command's name and how to load it: a CLI start loads (and runs the top-level code of) only the command it runs. */
interface CommandEntry {
  name: string;
  load(): CliCommand;
}

// Each command file exports one CliCommand; add yours to this list (one entry). `require` inside `load` keeps the
// command's modules (the MCP SDK, the catalog, the exec engine...) out of every other command's start.
/* eslint-disable @typescript-eslint/no-require-imports */
const entries: CommandEntry[] = [
  { name: 'validate', load: () => (require('./commands/validate') as typeof import('./commands/validate')).validateCommand },
  { name: 'read-properties', load: () => (require('./commands/readProperties') as typeof import('./commands/readProperties')).readPropertiesCommand },
  { name: 'prompt', load: () => (require('./commands/prompt') as typeof import('./commands/prompt')).promptCommand },
  { name: 'list', load: () => (require('./commands/list') as typeof import('./commands/list')).listCommand },
  { name: 'eval', load: () => (require('./commands/evalCommand') as typeof import('./commands/evalCommand')).evalCommand },
  { name: 'search', load: () => (require('./commands/search') as typeof import('./commands/search')).searchCommand },
  { name: 'run', load: () => (require('./commands/run') as typeof import('./commands/run')).runCommand },
  { name: 'session', load: () => (require('./commands/session') as typeof import('./commands/session')).sessionCommand },
  { name: 'inspect', load: () => (require('./commands/inspect') as typeof import('./commands/inspect')).inspectCommand },
  { name: 'patch', load: () => (require('./commands/patchCommand') as typeof import('./commands/patchCommand')).patchCommand },
  { name: 'create', load: () => (require('./commands/create') as typeof import('./commands/create')).createCommand },
  { name: 'history', load: () => (require('./commands/history') as typeof import('./commands/history')).historyCommand },
  { name: 'restore', load: () => (require('./commands/restore') as typeof import('./commands/restore')).restoreCommand },
  { name: 'archive', load: () => (require('./commands/archiveCommand') as typeof import('./commands/archiveCommand')).archiveCommand },
  { name: 'rules', load: () => (require('./commands/rules') as typeof import('./commands/rules')).rulesCommand },
  { name: 'explain', load: () => (require('./commands/rules') as typeof import('./commands/rules')).explainCommand },
  { name: 'mcp', load: () => (require('./commands/mcp') as typeof import('./commands/mcp')).mcpCommand },
];
/* eslint-enable @typescript-eslint/no-require-imports */

/** The command named `name`, loaded; undefined when there is none. */
export function findCommand(name: string): CliCommand | undefined {
  return entries.find((e) => e.name === name)?.load();
}

/** Every command, loaded (for the help text only). */
export function allCommands(): CliCommand[] {
  return entries.map((e) => e.load());
}

/** The name of every command, in table order (without loading them). */
export function commandNames(): string[] {
  return entries.map((e) => e.name);
}
