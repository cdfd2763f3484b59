// The MCP servers of setting agentSkills.mcpServers, and those of installed Agent Plugins' mcp.json that the user
// enabled (agentSkills.plugins.enabledMcpServers) and confirmed, whose skills join the runtime as
// `mcp:<server>:<skill>` (`mcp:<plugin>.<server>:<skill>` for a plugin's).
// Reconnected when the setting changes; in an untrusted workspace no server is started (a workspace could
// otherwise name any command to run). Each server's state and refused content go to the output channel.
import * as vscode from 'vscode';
import { connectMcpServers } from '../core/mcp/connectMcpServers';
import type { McpLaunch } from '../core/mcp/mcpLaunch';
import type { McpServerConfig } from '../core/mcp/mcpServerConfig';
import type { PluginMcpConsent } from './pluginMcpConsent';
import type { McpSkillsClient } from '../core/mcp/mcpSkillsClient';

export class McpSkillServers {
  private key = '[]';
  private clients: McpSkillsClient[] = [];
  /** Names of the servers the user configured: only their failures are shown in the Skills view. */
  private configured = new Set<string>();

  constructor(
    private readonly stateDir: () => string,
    private readonly log: vscode.LogOutputChannel,
    /** Whether an enabled plugin server may start (the user confirmed what it runs); none starts without a yes. */
    private readonly consent?: PluginMcpConsent,
    /** Told when servers changed outside an update (a plugin server the user just approved is up). */
    private readonly changed: () => void = () => undefined,
  ) {}

  private last: { configs: readonly McpServerConfig[]; trusted: boolean; pluginConfigs: readonly McpLaunch[] } | undefined;

  /**
   * Connects to the configured servers when they differ from the connected ones; resolves when all answered or
   * failed. `pluginConfigs` are the enabled plugin servers: each starts only once the user confirmed it.
   */
  async update(configs: readonly McpServerConfig[], trusted: boolean, pluginConfigs: readonly McpLaunch[] = []): Promise<boolean> {
    this.last = { configs, trusted, pluginConfigs };
    const approved: McpLaunch[] = [];
    for (const p of trusted ? pluginConfigs : []) {
      if (configs.some((c) => c.name === p.name)) continue;
      const decided = this.consent?.decided(p);
      if (decided) approved.push(p);
      // Not asked yet: the dialog does not hold up the skills; on a yes the servers are updated again.
      else if (decided === undefined && this.consent) {
        void this.consent.ask(p).then(async (yes) => {
          if (yes && this.last && (await this.update(this.last.configs, this.last.trusted, this.last.pluginConfigs))) this.changed();
        });
      }
    }
    const wanted: McpLaunch[] = trusted ? [...configs, ...approved] : [];
    if (!trusted && configs.length + pluginConfigs.length) this.log.warn('agentSkills.mcpServers and plugin MCP servers: no MCP server is started in an untrusted workspace.');
    // An enabled plugin server is the user's choice too: its failures are shown like a configured server's.
    this.configured = new Set([...configs, ...approved].map((c) => c.name));
    const key = JSON.stringify(wanted);
    if (key === this.key) return false;
    this.key = key;
    const old = this.clients;
    this.clients = await connectMcpServers(wanted, this.stateDir());
    await Promise.all(old.map((c) => c.close()));
    for (const c of this.clients) {
      if (c.state.state === 'up') this.log.info(`MCP server '${c.config.name}': ${c.state.skills} skill(s), read-only, never run here.`);
      else if (this.configured.has(c.config.name)) this.log.warn('reason' in c.state ? c.state.reason : `MCP server '${c.config.name}': ${c.state.state}`);
      // A plugin's server that serves no skills (most do not) is not a problem of ours: said once, quietly.
      else this.log.info('reason' in c.state ? c.state.reason : `MCP server '${c.config.name}': ${c.state.state}`);
    }
    return true;
  }

  /** Each connected server that serves no skills now, with the reason (shown in the Skills view). */
  problems(): { server: string; reason: string }[] {
    return this.clients.flatMap((c) => ((c.state.state === 'down' || c.state.state === 'no-skills') && this.configured.has(c.config.name) ? [{ server: c.config.name, reason: c.state.reason }] : []));
  }

  /** The connected servers: the core's MCP source reads them on each call (so it follows reconnections). */
  connected(): readonly McpSkillsClient[] {
    return this.clients;
  }

  dispose(): void {
    for (const c of this.clients) void c.close();
    this.clients = [];
  }
}
