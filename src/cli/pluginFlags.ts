// The Agent Plugins a command reads: the folders named with --plugin, then (unless --no-defaults) those Claude
// Code, Copilot CLI and VS Code installed for this user. Their problems go to stderr, each once.
import * as os from 'node:os';
import * as path from 'node:path';
import type { McpServerConfig } from '../core/mcp/mcpServerConfig';
import { installedPlugins, pluginMcpServers, pluginSkillRoots, readPlugins, type LocatedPlugin } from '../core/plugins';
import type { SkillRoot } from '../core/registry/registryTypes';

/** The plugins read and the skill roots they contribute. */
export interface CliPlugins {
  plugins: LocatedPlugin[];
  roots: SkillRoot[];
  /** The plugins' MCP servers (mcp.json), whose skills join as `mcp:<plugin>.<server>:<skill>` when they serve any. */
  mcpServers: McpServerConfig[];
}

/** `stateDir`: the command's state folder; plugin data folders live in `<stateDir>/plugin-data` (as for scripts). */
export function cliPlugins(command: string, dirs: readonly string[], noDefaults: boolean, stateDir: string): CliPlugins {
  const plugins = readPlugins([...dirs.map((p) => path.resolve(p)), ...(noDefaults ? [] : installedPlugins({ homeDir: os.homedir() }))]);
  for (const pr of plugins) for (const problem of pr.problems) process.stderr.write(`agent-skills ${command}: ${problem.severity}: ${problem.message} (${problem.rule})\n`);
  const mcp = pluginMcpServers(plugins, path.join(stateDir, 'plugin-data'));
  for (const problem of mcp.problems) process.stderr.write(`agent-skills ${command}: ${problem.severity}: ${problem.message} (${problem.rule})\n`);
  return { plugins, roots: pluginSkillRoots(plugins), mcpServers: mcp.configs };
}
