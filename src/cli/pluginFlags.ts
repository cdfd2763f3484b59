// The Agent Plugins a command reads: the folders named with --plugin, then (unless --no-defaults) those Claude
// Code, Copilot CLI and VS Code installed for this user. Their problems go to stderr, each once. Reading a plugin
// never starts anything from it: its MCP servers start only when named with --enable-plugin-mcp.
import * as os from 'node:os';
import * as path from 'node:path';
import type { McpLaunch } from '../core/mcp/mcpLaunch';
import { ambiguousServerMessage, installedPlugins, pluginMcpNotices, pluginMcpServers, pluginSkillRoots, readPlugins, type DeclaredPluginMcp, type LocatedPlugin } from '../core/plugins';
import type { SkillRoot } from '../core/registry/registryTypes';
import { printable } from './terminalText';
import { UsageError } from './usageError';

/** The flag that starts one of a plugin's MCP servers (`<plugin>.<server>`). */
export const ENABLE_PLUGIN_MCP_FLAG = '--enable-plugin-mcp';

/** The plugins read and the skill roots they contribute. */
export interface CliPlugins {
  plugins: LocatedPlugin[];
  roots: SkillRoot[];
  /** The plugins' MCP servers named with --enable-plugin-mcp, whose skills join as `mcp:<plugin>.<server>:<skill>`. */
  mcpServers: McpLaunch[];
  /** Every server the plugins declare, enabled or not. */
  mcpDeclared: DeclaredPluginMcp[];
  /** One line per plugin whose servers are not started, saying how to start them. */
  mcpNotices: string[];
}

/**
 * `stateDir`: the command's state folder; plugin data folders live in `<stateDir>/plugin-data` (as for scripts).
 * `enableMcp`: the `<plugin>.<server>` names given with --enable-plugin-mcp; a name no plugin declares is a usage error.
 */
export function cliPlugins(command: string, dirs: readonly string[], noDefaults: boolean, stateDir: string, enableMcp: readonly string[] = []): CliPlugins {
  const plugins = readPlugins([...dirs.map((p) => path.resolve(p)), ...(noDefaults ? [] : installedPlugins({ homeDir: os.homedir() }))]);
  for (const pr of plugins) for (const problem of pr.problems) process.stderr.write(`agent-skills ${command}: ${problem.severity}: ${printable(problem.message)} (${problem.rule})\n`);
  const mcp = pluginMcpServers(plugins, path.join(stateDir, 'plugin-data'), { enabled: enableMcp });
  for (const problem of mcp.problems) process.stderr.write(`agent-skills ${command}: ${problem.severity}: ${printable(problem.message)} (${problem.rule})\n`);
  for (const name of enableMcp) {
    const d = mcp.declared.find((x) => x.name === name);
    if (!d) {
      const known = mcp.declared.map((x) => x.name);
      throw new UsageError(`${ENABLE_PLUGIN_MCP_FLAG} ${name}: no plugin read here declares an MCP server of that name. ${known.length ? `Declared: ${known.join(', ')}.` : 'None of the plugins read declares an MCP server.'} Name it <plugin>.<server>, as \`agent-skills list\` shows it.`);
    }
    if (d.unsupported) throw new UsageError(`${ENABLE_PLUGIN_MCP_FLAG} ${name}: ${d.unsupported}`);
    if (d.declaredBy) throw new UsageError(`${ENABLE_PLUGIN_MCP_FLAG} ${name}: ${ambiguousServerMessage(d)}`);
  }
  const mcpNotices = pluginMcpNotices(mcp.declared, (name) => `add ${ENABLE_PLUGIN_MCP_FLAG} ${name}`);
  return { plugins, roots: pluginSkillRoots(plugins), mcpServers: mcp.configs, mcpDeclared: mcp.declared, mcpNotices };
}
