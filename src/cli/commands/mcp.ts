import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { describeSandbox } from '../../core/exec/sandboxStatus';
import type { CliCommand } from '../cliCommand';
import { guardPolicy, isLoopbackHost } from '../mcp/httpGuards';
import { startHttpServer } from '../mcp/httpServer';
import { createMcpBackend } from '../mcp/mcpBackend';
import { parseMcpOptions, TOKEN_ENV, type McpOptions } from '../mcp/mcpOptions';
import { createMcpSession } from '../mcp/mcpSession';
import { DualEraTransport } from '../mcp/dualEraTransport';
import { mcpHandlers } from '../mcp/mcpHandlers';
import { modernServer } from '../mcp/modernDispatch';
import { printConfig } from '../mcp/printConfig';
import { tokenPrincipal } from '../mcp/requestState';
import { UsageError } from '../usageError';
import { redisStateStore } from '../../core/runtime/redisStateStore';
import { cliSources } from '../cliSources';
import { cliStateDir } from './session';

const say = (s: string) => process.stderr.write(`agent-skills mcp: ${s}\n`);

/** The arguments a client's config should pass: the options given here, minus --print-config and secrets. */
function configArgs(args: string[]): string[] {
  const out: string[] = ['mcp'];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--print-config' || a === '--token') i++;
    else if (a.startsWith('--print-config=') || a.startsWith('--token=')) continue;
    else out.push(a);
  }
  return out;
}

/** The sandbox policy scripts run under: over HTTP a sandbox is required unless `--sandbox off` was given. */
function scriptSandbox(o: McpOptions): McpOptions['sandbox'] {
  if (!o.http || !o.allowScripts) return o.sandbox;
  if (o.sandbox === 'off') return 'off';
  if (o.sandbox === 'auto') say('over HTTP, --sandbox auto is taken as required: scripts run only in a sandbox (give --sandbox off to run them without one).');
  return 'required';
}

/**
 * `agent-skills mcp`: the runtime as an MCP server (stdio, or Streamable HTTP with `--http`). Each MCP session is
 * one runtime session; skills are also `skill://` resources (Skills Extension) and user-invocable ones prompts.
 */
export const mcpCommand: CliCommand = {
  name: 'mcp',
  usage:
    'mcp [--root [scope:]<dir>]... [--plugin <dir>]... [--no-defaults] [--state-dir <dir>] [--tool-surface standard|minimal|both] [--allow-scripts [--confirm-scripts when-supported|always|never]] [--read-only] [--no-tools] [--sandbox auto|off|required] ' +
    '[--mcp-server <name>=<url|command>]... [--enable-plugin-mcp <plugin>.<server>]... [--http [host:]port [--token <t>] [--allow-origin <o>]... [--allow-host <h>]... [--max-sessions <n>] [--max-body-kb <n>] [--idle-timeout <s>]] [--state-store redis://host:port/db] [--print-config claude-code|codex|copilot-cli|cursor|vscode]',
  summary: 'Serve the skills over MCP (tools, skill:// resources, prompts) to Claude Code, Codex, Copilot CLI, Cursor, VS Code and other MCP clients.',
  help: {
    options: [['--root [scope:]<dir>', 'Another folder of skills (repeatable).'], ['--plugin <dir>', 'An Agent Plugin folder (repeatable).'], ['--no-defaults', 'Skip the default roots.'], ['--state-dir <dir>', 'The runtime state folder.'], ['--tool-surface standard|minimal|both', 'Which tools to offer.'], ['--allow-scripts', 'Offer the script tools (off by default).'], ['--confirm-scripts when-supported|always|never', 'Ask the user (MCP elicitation) before each script run: every client that declared elicitation (default), every client (others cannot run scripts), or no one.'], ['--read-only', 'Offer no tool that changes a skill.'], ['--no-tools', 'Serve resources and prompts only.'], ['--sandbox auto|off|required', 'How scripts run.'], ['--mcp-server <name>=<url|command>', 'Also serve the skills of this MCP server (repeatable).'], ['--enable-plugin-mcp <plugin>.<server>', 'Start this MCP server that an Agent Plugin declares (repeatable); reading a plugin never starts one, and `list` names the servers each plugin declares.'], ['--http [host:]port', 'Serve Streamable HTTP instead of stdio.'], ['--token <t>', 'Bearer token HTTP clients must send (required off loopback).'], ['--allow-origin <o>', 'An Origin allowed over HTTP (repeatable).'], ['--allow-host <h>', 'A Host header allowed over HTTP (repeatable).'], ['--max-sessions <n>', 'Most HTTP sessions at once (default 64).'], ['--max-body-kb <n>', 'Largest HTTP request body (default 1024).'], ['--idle-timeout <s>', 'Close an idle HTTP session after this long (default 1800).'], ['--state-store redis://host:port/db', 'Keep the state of 2026-07-28 session handles in this Redis, shared by several replicas behind a load balancer (default: the state folder, one process).'], ['--print-config <client>', 'Print the configuration for claude-code, codex, copilot-cli, cursor or vscode and exit.']],
    exitCodes: [[0, 'the server stopped (stdin closed, SIGINT or SIGTERM), or the configuration was printed'], [1, 'the server could not start']],
  },
  async run(args) {
    const o = parseMcpOptions(args);
    if (o.printConfig !== undefined) {
      process.stdout.write(printConfig(o.printConfig, { command: 'agent-skills', args: configArgs(args) }));
      return 0;
    }
    if (o.http && !isLoopbackHost(o.http.host) && !o.token) {
      throw new UsageError(`refusing to listen on ${o.http.host} without a bearer token: anyone who can reach it could use your skills${o.allowScripts ? ' and run their scripts' : ''}. Set ${TOKEN_ENV} (or --token) to a secret of 16+ characters, or bind 127.0.0.1.`);
    }
    const { roots, plugins } = cliSources('mcp', { roots: o.roots, plugins: o.plugins, noDefaults: o.noDefaults, stateDir: cliStateDir(o.stateDir), enablePluginMcp: o.enablePluginMcp, others: { flag: '--mcp-server <name>=<url|command>', count: o.noTools ? 0 : o.mcpServers.length } });
    for (const n of plugins.mcpNotices) say(n);
    const backend = await createMcpBackend({ roots, stateDir: cliStateDir(o.stateDir), surface: o.surface, allowScripts: o.allowScripts, confirmScripts: o.confirmScripts, readOnly: o.readOnly, tools: !o.noTools, sandbox: scriptSandbox(o), ...(o.http ? { artifactsPerSession: true } : { workspaceDir: process.cwd() }), mcpServers: o.noTools ? [] : [...o.mcpServers, ...plugins.mcpServers], ...(o.stateStore ? { stateStore: redisStateStore(o.stateStore) } : {}), ...(o.http && o.token ? { principal: tokenPrincipal(o.token) } : {}) });
    if (backend.sandbox && (!backend.sandbox.sandboxed || backend.sandbox.missing?.length)) say(`${describeSandbox(backend.sandbox)}`);
    const stop = new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    if (!o.http) {
      const session = await createMcpSession(backend, `stdio-${process.pid}-${Date.now()}`);
      // Both eras on stdio: 2026-07-28 requests are answered statelessly, initialize opens the legacy session.
      const transport = new DualEraTransport(new StdioServerTransport(), modernServer(backend, mcpHandlers(backend)));
      const closed = new Promise<void>((resolve) => {
        transport.onclose = resolve;
        process.stdin.once('end', resolve);
      });
      await session.server.connect(transport);
      await Promise.race([closed, stop]);
      // Stops reading stdin too: on SIGTERM with the client's pipe still open the process would otherwise stay.
      await transport.close().catch(() => undefined);
      await session.dispose();
      await backend.close();
      return 0;
    }
    const policy = guardPolicy(o.http.host, { token: o.token, allowHosts: o.allowHosts, allowOrigins: o.allowOrigins, maxBodyBytes: o.maxBodyBytes });
    const server = await startHttpServer(backend, { host: o.http.host, port: o.http.port, policy, maxSessions: o.maxSessions, idleTimeoutMs: o.idleTimeoutMs });
    // Tests and scripts read this line to learn the port when they asked for port 0.
    say(`2026-07-28 session handles are kept in the ${backend.handles.store.name}`);
    say(`listening on ${server.url}${o.token ? ' (bearer token required)' : ''}`);
    await stop;
    await server.close();
    await backend.close();
    return 0;
  },
};
