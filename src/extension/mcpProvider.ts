// The window's skills offered to VS Code's MCP client (vscode.lm.registerMcpServerDefinitionProvider), governed by
// the setting agentSkills.mcp.provide:
// - `resources` (default): `agent-skills mcp --no-tools`: skill:// resources, the budgeted catalog in its
//   instructions, user-invocable skills as MCP prompts. No tools: Copilot's agent already has our Language Model
//   Tools, and tools offered here too would show it each tool twice. What this reaches that our tools do not: the
//   skills as prompts (slash commands in every chat mode and agent) and as resources anyone can attach.
// - `tools`: the same server with its tools (load_skills, find_skills, ...), for agents in VS Code that take MCP
//   servers but not Language Model Tools (the Copilot CLI harness, custom agents). Copilot's own agent then sees
//   each tool twice, which is why it is not the default.
// - `off`: no definition; a running server is stopped by VS Code when the definition goes.
// Changing the setting, or the folders served, fires onDidChangeMcpServerDefinitions.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { selfNodeEnv } from '../core/exec/interpreters';
import type { SkillRoot } from '../core/registry/registryTypes';
import { sourceOf } from '../core/sources';
import { RUNTIME_SETTING_KEYS, SECTION } from './settings';
import { schemas } from './settingsSchema';
import type { SkillsService } from './skillsService';

/** The provider id contributed in package.json (`contributes.mcpServerDefinitionProviders`). */
export const MCP_PROVIDER_ID = 'agentSkills.skills';

/** What agentSkills.mcp.provide asks for. */
export type McpProvideMode = 'off' | 'resources' | 'tools';

/** The setting's value; a bad value is the default (the service reports it with the other settings' problems). */
export function mcpProvideMode(config: Pick<vscode.WorkspaceConfiguration, 'get'> = vscode.workspace.getConfiguration(SECTION)): McpProvideMode {
  const r = schemas.mcpProvide.safeParse(config.get(RUNTIME_SETTING_KEYS.mcpProvide));
  return r.success ? r.data : schemas.mcpProvide.parse(undefined);
}

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

/** The server's label in VS Code's MCP list, per mode. */
export function mcpServerLabel(mode: Exclude<McpProvideMode, 'off'>): string {
  return mode === 'tools' ? 'Agent Skills' : 'Agent Skills (skills as resources and prompts)';
}

export function registerMcpProvider(context: vscode.ExtensionContext, service: SkillsService): void {
  // Older hosts (and forks) without the API: the server is still reachable through .vscode/mcp.json (README).
  if (typeof vscode.lm.registerMcpServerDefinitionProvider !== 'function') return;
  const changed = new vscode.EventEmitter<void>();
  const cli = path.join(context.extensionPath, 'dist', 'cli.js');
  const argsNow = (mode: Exclude<McpProvideMode, 'off'>) => [cli, 'mcp', ...(mode === 'tools' ? [] : ['--no-tools']), '--no-defaults', '--state-dir', path.join(service.stateDir, 'mcp-served'), ...servedRootArgs(service.scannedRoots())];
  const keyNow = () => {
    const mode = mcpProvideMode();
    return mode === 'off' ? 'off' : JSON.stringify(argsNow(mode));
  };
  // The server watches its folders itself; VS Code is told only when the folders it serves, or the mode, change.
  let last: string | undefined;
  const maybeChanged = () => {
    if (last !== undefined && keyNow() !== last) changed.fire();
  };
  context.subscriptions.push(
    changed,
    service.onDidChangeSkills(maybeChanged),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${SECTION}.${RUNTIME_SETTING_KEYS.mcpProvide}`)) maybeChanged();
    }),
    vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, {
      onDidChangeMcpServerDefinitions: changed.event,
      provideMcpServerDefinitions: () => {
        const mode = mcpProvideMode();
        last = keyNow();
        if (mode === 'off') return [];
        const def = new vscode.McpStdioServerDefinition(mcpServerLabel(mode), process.execPath, argsNow(mode), selfNodeEnv(process.execPath), context.extension.packageJSON.version as string);
        const cwd = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
        if (cwd) def.cwd = cwd.uri;
        return [def];
      },
    }),
  );
}
