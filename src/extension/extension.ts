// Entry point of the extension: activation only wires the registerX functions together. Nothing here
// scans or reads files: the core starts on first use (a view, a tool call, a chat request).
import * as vscode from 'vscode';
import { WindowCatalog } from './windowCatalog';
import { registerParticipant } from './chat/participant';
import { registerEvals } from './evals/registerEvals';
import { registerPlayground } from './playground/registerPlayground';
import { registerPluginSkills } from './pluginSkills';
import { registerCommands } from './commands/registerCommands';
import { registerLanguageClient } from './languageClient';
import { SessionRouter } from './sessionRouting';
import { SkillsService } from './skillsService';
import { registerTools } from './tools/registerTools';
import { registerTree } from './tree/registerTree';
import { registerWatchers } from './watchers';
import { registerMcpProvider } from './mcpProvider';

/** What activate returns: the service, for the extension's own tests. */
export interface SkillsExtensionApi {
  service: SkillsService;
  catalog: WindowCatalog;
}

export function activate(context: vscode.ExtensionContext): SkillsExtensionApi {
  const log = vscode.window.createOutputChannel('Agent Skills', { log: true });
  const service = new SkillsService(context, log);
  const router = new SessionRouter();
  context.subscriptions.push(log, service);
  const catalog = new WindowCatalog(service);
  service.attachCatalog(catalog);
  registerPluginSkills(context, () => service.extensionsChanged(), log);
  registerTools(context, { service, router, catalog });
  registerParticipant(context, service, router);
  const tree = registerTree(context, service);
  const client = registerLanguageClient(context, log, service);
  registerCommands(context, service, tree, client);
  const reports = registerPlayground(context, service, tree);
  registerEvals(context, service, catalog, reports);
  registerWatchers(context, service);
  registerMcpProvider(context, service);
  return { service, catalog };
}

export function deactivate(): void {
  // Every registration is a disposable in context.subscriptions; VS Code disposes them.
}
