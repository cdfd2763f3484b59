// The confirmation before one of a plugin's MCP servers starts (only servers named in
// agentSkills.plugins.enabledMcpServers get here): a warning notification that says exactly what will run
// (command, arguments, folder, environment names) with Start Server / Don't Start. Not a modal: asking never holds
// up the window or the skills (the server starts when the answer comes, and an unanswered question starts nothing),
// and VS Code refuses modals in its extension test runs, where this is tested. An answer of yes is kept per
// server for that exact launch: a plugin update that changes any of it asks again. A no (or closing the
// notification) holds until the window reloads.
import * as vscode from 'vscode';
import { describeLaunch, type McpLaunch } from '../core/mcp/mcpLaunch';

const KEY_PREFIX = 'agentSkills.pluginMcpApproved:';
const START = 'Start Server';
const DONT = "Don't Start";

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
          let answer: string | undefined;
          try {
            answer = await vscode.window.showWarningMessage(`${d.summary} ${d.detail.split('\n').join(' · ')}`, START, DONT);
          } catch (e) {
            // Not shown (a host that refuses messages): nothing starts, and the next update asks again.
            log.warn(`Plugin MCP server '${launch.name}' not started: the confirmation could not be shown (${(e as Error).message}).`);
            return false;
          }
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
