// The discovery options `list`, `search` and `prompt` share (--root, --plugin, --mcp-server, --state-dir,
// --no-defaults, --strict) and the one way they find skills: default roots (the current folder as the workspace,
// the home folder's skill folders) unless --no-defaults, extra roots, installed and named Agent Plugins, MCP servers.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { createAgentSkills } from '../../core/agentSkills';
import type { McpSkillsClient } from '../../core/mcp/mcpSkillsClient';
import type { RegistrySnapshot } from '../../core/registry';
import { cliSources, mcpServerFlags } from '../cliSources';
import type { CliPlugins } from '../pluginFlags';
import { UsageError } from '../usageError';
import { cliStateDir } from './session';

/** `parseArgs` options of discovery. */
export const DISCOVERY_OPTIONS = {
  root: { type: 'string', multiple: true, default: [] as string[] },
  strict: { type: 'boolean', default: false },
  'no-defaults': { type: 'boolean', default: false },
  'mcp-server': { type: 'string', multiple: true, default: [] as string[] },
  plugin: { type: 'string', multiple: true, default: [] as string[] },
  'enable-plugin-mcp': { type: 'string', multiple: true, default: [] as string[] },
  'state-dir': { type: 'string' },
} as const;

type OptionTable = NonNullable<ParseArgsConfig['options']>;

/**
 * Parses a command's arguments: the discovery options plus the command's own `options` (strict: an unknown option
 * is a usage error, exit 2). Every command that discovers skills (`list`, `search`, `prompt`, `eval`) parses here.
 */
export function parseDiscoveryArgs<O extends OptionTable>(args: string[], options: O, allowPositionals = true) {
  try {
    return parseArgs({ args, options: { ...DISCOVERY_OPTIONS, ...options } as typeof DISCOVERY_OPTIONS & O, allowPositionals, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/** The usage text of the discovery options. */
export const DISCOVERY_USAGE =
  '[--root [project:|user:|plugin:<id>:|pack:<name>:]<dir>]... [--plugin <dir>]... [--mcp-server <name>=<url|command>]... [--enable-plugin-mcp <plugin>.<server>]... [--state-dir <dir>] [--no-defaults] [--strict]';

/** The help rows of the discovery options (`agent-skills <command> --help`), for every command that takes them. */
export const DISCOVERY_HELP: readonly (readonly [string, string])[] = [
  ['--root [scope:]<dir>', 'Another folder of skills; scope project:, user:, plugin:<id>: or pack:<name>: (repeatable).'],
  ['--plugin <dir>', 'An Agent Plugin folder whose skills to read (repeatable).'],
  ['--mcp-server <name>=<url|command>', 'An MCP server that serves skills (repeatable).'],
  ['--enable-plugin-mcp <plugin>.<server>', 'Start this MCP server that an Agent Plugin declares (repeatable); reading a plugin never starts one, and `list` names the servers each plugin declares.'],
  ['--state-dir <dir>', 'The runtime state folder (default: the user state folder).'],
  ['--no-defaults', 'Skip the default roots (current folder and home skill folders).'],
  ['--strict', 'Judge each skill with the reference rules.'],
];

/** The parsed discovery options. */
export interface DiscoveryValues {
  root: string[];
  strict: boolean;
  'no-defaults': boolean;
  'mcp-server': string[];
  plugin: string[];
  'enable-plugin-mcp': string[];
  'state-dir'?: string;
}

/** What discovery found; `close()` disconnects the MCP servers it asked. */
export interface Discovered {
  snapshot: RegistrySnapshot;
  plugins: CliPlugins['plugins'];
  /** Every MCP server the plugins declare, enabled or not. */
  mcpDeclared: CliPlugins['mcpDeclared'];
  /** One line per plugin whose servers are not started, saying how to start them. */
  mcpNotices: string[];
  /** Every MCP client connected (close them all). */
  connected: McpSkillsClient[];
  /** The clients worth showing: the servers named with --mcp-server, and plugin servers that are up. */
  clients: McpSkillsClient[];
  close(): Promise<void>;
}

/** Runs discovery for `command` (the name used in messages). */
export async function discover(command: string, values: DiscoveryValues): Promise<Discovered> {
  const servers = mcpServerFlags(values['mcp-server']);
  // Plugins named with --plugin, then (unless --no-defaults) those Claude Code and Copilot CLI installed for this user.
  // Their MCP servers are only read: one starts only when named with --enable-plugin-mcp.
  const { roots, plugins: read } = cliSources(command, {
    roots: values.root,
    plugins: values.plugin,
    noDefaults: values['no-defaults'],
    stateDir: cliStateDir(values['state-dir']),
    enablePluginMcp: values['enable-plugin-mcp'],
    others: { flag: '--mcp-server <name>=<url|command>', count: servers.length },
  });
  const { plugins, mcpServers: pluginServers, mcpDeclared, mcpNotices } = read;
  const snapshot = await createAgentSkills({ roots, mode: values.strict ? 'strict' : 'lenient', stateDir: cliStateDir(values['state-dir']) }).refresh();
  // The MCP client (the SDK) is loaded only when there is a server to ask.
  const wanted = [...servers, ...pluginServers];
  const connected: McpSkillsClient[] = wanted.length
    ? // eslint-disable-next-line @typescript-eslint/no-require-imports
      await (require('../../core/mcp/connectMcpServers') as typeof import('../../core/mcp/connectMcpServers')).connectMcpServers(wanted, cliStateDir(values['state-dir']))
    : [];
  // An enabled plugin server is shown as any named server: the user asked for it, so its state is their concern.
  const named = new Set([...servers, ...pluginServers].map((s) => s.name));
  const clients = connected.filter((c) => named.has(c.config.name) || c.state.state === 'up');
  return { snapshot, plugins, mcpDeclared, mcpNotices, connected, clients, close: async () => void (await Promise.all(connected.map((c) => c.close()))) };
}
