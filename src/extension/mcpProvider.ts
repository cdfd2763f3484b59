// The window's skills offered to VS Code's MCP client (vscode.lm.registerMcpServerDefinitionProvider), as
// `agent-skills mcp --no-tools`: skill:// resources, the budgeted catalog in its instructions, and user-invocable
// skills as MCP prompts. No tools: every agent in VS Code that takes MCP tools also gets our Language Model Tools,
// so offering tools here would show Copilot's agent each tool twice. What this reaches that our tools do not:
// the skills as prompts (slash commands in every chat mode and agent, not only where our tools are enabled)
// and as resources any agent or the user can attach ("Add Context" > MCP Resources).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { selfNodeEnv } from '../core/exec/interpreters';
import type { SkillRoot } from '../core/registry/registryTypes';
import { sourceOf } from '../core/sources';
import type { SkillsService } from './skillsService';

/** The provider id contributed in package.json (`contributes.mcpServerDefinitionProviders`). */
export const MCP_PROVIDER_ID = 'agentSkills.skills';

/**
 * The `agent-skills mcp` arguments serving `roots`: each root as `--root <scope word>:<dir>` (a source's own name
 * where ids carry it), each Agent Plugin once as `--plugin`; skills extensions contribute one by one (`only`)
 * are left to VS Code, which serves them itself.
 */
export function servedRootArgs(roots: readonly SkillRoot[]): string[] {
  const args: string[] = [];
  const plugins = new Set<string>();
  for (const r of roots) {
    if (r.plugin) {
      if (!plugins.has(r.plugin.root)) args.push('--plugin', r.plugin.root);
      plugins.add(r.plugin.root);
      continue;
    }
    if (r.only) continue;
    const kind = sourceOf(r.scope);
    if (kind.name === 'mcp') continue;
    args.push('--root', kind.idHasSource ? `${kind.scopeWord}:${r.source ?? 'config'}:${r.path}` : `${kind.scopeWord}:${r.path}`);
  }
  return args;
}

export function registerMcpProvider(context: vscode.ExtensionContext, service: SkillsService): void {
  // Older hosts (and forks) without the API: the server is still reachable through .vscode/mcp.json (README).
  if (typeof vscode.lm.registerMcpServerDefinitionProvider !== 'function') return;
  const changed = new vscode.EventEmitter<void>();
  const cli = path.join(context.extensionPath, 'dist', 'cli.js');
  const argsNow = () => [cli, 'mcp', '--no-tools', '--no-defaults', '--state-dir', path.join(service.stateDir, 'mcp-served'), ...servedRootArgs(service.scannedRoots())];
  // The server watches its folders itself; VS Code is told only when the folders it serves change.
  let last = '';
  context.subscriptions.push(
    changed,
    service.onDidChangeSkills(() => {
      const key = JSON.stringify(argsNow());
      if (last && key !== last) changed.fire();
    }),
    vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, {
      onDidChangeMcpServerDefinitions: changed.event,
      provideMcpServerDefinitions: () => {
        const args = argsNow();
        last = JSON.stringify(args);
        const def = new vscode.McpStdioServerDefinition('Agent Skills (skills as resources and prompts)', process.execPath, args, selfNodeEnv(process.execPath), context.extension.packageJSON.version as string);
        const cwd = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
        if (cwd) def.cwd = cwd.uri;
        return [def];
      },
    }),
  );
}
