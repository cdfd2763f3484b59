// `agent-skills mcp --print-config <client>`: the configuration each MCP client needs to start this server over
// stdio, in that client's own file format. The command is the installed `agent-skills` (npm -g or npx).
import { UsageError } from '../usageError';

/** Clients we print configuration for. */
export const CONFIG_CLIENTS = ['claude-code', 'codex', 'copilot-cli', 'cursor', 'vscode'] as const;
export type ConfigClient = (typeof CONFIG_CLIENTS)[number];

/** The server's command line as clients should start it. */
export interface ServerCommand {
  command: string;
  args: string[];
}

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
const toml = (s: string) => JSON.stringify(s); // TOML basic strings share JSON's escapes for what we print

/** The text to print for a client: where it goes, then the content. */
export function printConfig(client: string, cmd: ServerCommand): string {
  switch (client as ConfigClient) {
    case 'claude-code':
      return [
        '# Claude Code: run this once in your project (or put the JSON below in .mcp.json at the project root):',
        `claude mcp add agent-skills -- ${[cmd.command, ...cmd.args].join(' ')}`,
        '',
        json({ mcpServers: { 'agent-skills': { type: 'stdio', command: cmd.command, args: cmd.args } } }),
      ].join('\n');
    case 'codex':
      return ['# Codex: add to ~/.codex/config.toml', '[mcp_servers.agent-skills]', `command = ${toml(cmd.command)}`, `args = [${cmd.args.map(toml).join(', ')}]`, ''].join('\n');
    case 'copilot-cli':
      return ['# GitHub Copilot CLI: add to ~/.copilot/mcp-config.json (or use /mcp add in the CLI)', json({ mcpServers: { 'agent-skills': { type: 'local', command: cmd.command, args: cmd.args, tools: ['*'] } } })].join('\n');
    case 'cursor':
      return ['# Cursor: add to .cursor/mcp.json in the project (or ~/.cursor/mcp.json for every project)', json({ mcpServers: { 'agent-skills': { command: cmd.command, args: cmd.args } } })].join('\n');
    case 'vscode':
      return ['# VS Code: add to .vscode/mcp.json in the workspace', json({ servers: { 'agent-skills': { type: 'stdio', command: cmd.command, args: cmd.args } } })].join('\n');
    default:
      throw new UsageError(`--print-config takes one of ${CONFIG_CLIENTS.join(', ')}, not '${client}'.`);
  }
}
