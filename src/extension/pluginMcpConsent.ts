// The confirmation before one of a plugin's MCP servers starts (only servers named in
// agentSkills.plugins.enabledMcpServers get here): a modal that says exactly what will run (command, arguments,
// folder, environment names). An answer of yes is kept per server for that exact launch: a plugin update that
// changes any of it asks again. A no holds until the window reloads.
import * as vscode from 'vscode';
import { describeLaunch, type McpLaunch } from '../core/mcp/mcpLaunch';

const KEY_PREFIX = 'agentSkills.pluginMcpApproved:';
const START = 'Start Server';

/** Asks (once per launch) whether a plugin's MCP server may start; resolves true when the user agreed now or before. */
export function pluginMcpConsent(memento: vscode.Memento, log: vscode.LogOutputChannel): (launch: McpLaunch) => Promise<boolean> {
  const declined = new Set<string>();
  const asking = new Map<string, Promise<boolean>>();
  return (launch) => {
    const d = describeLaunch(launch);
    const key = `${KEY_PREFIX}${launch.name}`;
    if (memento.get<string>(key) === d.fingerprint) return Promise.resolve(true);
    if (declined.has(d.fingerprint)) return Promise.resolve(false);
    let p = asking.get(d.fingerprint);
    if (!p) {
      p = (async () => {
        const answer = await vscode.window.showWarningMessage(d.summary, { modal: true, detail: d.detail }, START);
        if (answer === START) {
          await memento.update(key, d.fingerprint);
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
  };
}
