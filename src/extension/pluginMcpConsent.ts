// The confirmation before one of a plugin's MCP servers starts (only servers named in
// agentSkills.plugins.enabledMcpServers get here): a modal that says exactly what will run (command, arguments,
// folder, environment names). An answer of yes is kept per server for that exact launch: a plugin update that
// changes any of it asks again. A no holds until the window reloads. Asking never holds up the skills: the server
// starts when the answer comes.
import * as vscode from 'vscode';
import { describeLaunch, type McpLaunch } from '../core/mcp/mcpLaunch';

const KEY_PREFIX = 'agentSkills.pluginMcpApproved:';
const START = 'Start Server';

/** What the user said about starting a plugin's server. */
export interface PluginMcpConsent {
  /** true: approved (this exact launch); false: declined in this window; undefined: not asked yet. */
  decided(launch: McpLaunch): boolean | undefined;
  /** Asks (one dialog per launch at a time); resolves with the answer. */
  ask(launch: McpLaunch): Promise<boolean>;
}

export function pluginMcpConsent(memento: vscode.Memento, log: vscode.LogOutputChannel): PluginMcpConsent {
  const declined = new Set<string>();
  const asking = new Map<string, Promise<boolean>>();
  const key = (launch: McpLaunch) => `${KEY_PREFIX}${launch.name}`;
  return {
    decided(launch) {
      const fp = describeLaunch(launch).fingerprint;
      if (memento.get<string>(key(launch)) === fp) return true;
      return declined.has(fp) ? false : undefined;
    },
    ask(launch) {
      const d = describeLaunch(launch);
      let p = asking.get(d.fingerprint);
      if (!p) {
        p = (async () => {
          const answer = await vscode.window.showWarningMessage(d.summary, { modal: true, detail: d.detail }, START);
          if (answer === START) {
            await memento.update(key(launch), d.fingerprint);
            log.info(`Plugin MCP server '${launch.name}' approved:\n${d.detail}`);
            return true;
          }
          declined.add(d.fingerprint);
          log.info(`Plugin MCP server '${launch.name}' not started: you declined. Reload the window to be asked again, or remove it from agentSkills.plugins.enabledMcpServers.`);
          return false;
        })().finally(() => asking.delete(d.fingerprint));
        asking.set(d.fingerprint, p);
      }
      return p;
    },
  };
}
