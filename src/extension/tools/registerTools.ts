import * as vscode from 'vscode';
import { CATALOG_TOOL_NAMES, TOOL_NAMES } from '../ids';
import { ListDocsTool } from './listDocsTool';
import { ListSkillsTool } from './listSkillsTool';
import { LoadTool } from './loadTool';
import { ReadTool } from './readTool';
import { RunScriptTool } from './runScriptTool';
import { RunSkillTool } from './runSkillTool';
import type { ToolDeps } from './runtimeTool';
import { SelectDocsTool } from './selectDocsTool';
import { UnloadTool } from './unloadTool';
import { UpdateSkillTool } from './updateSkillTool';

/**
 * Registers every Language Model Tool the manifest contributes, whatever agentSkills.toolSurface says: VS Code
 * needs them registered to match the static contributions. The surface decides what models are offered
 * (the manifest's `when` clauses for Copilot's agent, offeredToolNames for @skills); a tool outside it that is
 * still invoked directly (vscode.lm.invokeTool by another extension) answers as usual.
 */
export function registerTools(context: vscode.ExtensionContext, deps: ToolDeps): void {
  const tools: [string, vscode.LanguageModelTool<never>][] = [
    [TOOL_NAMES.list, new ListSkillsTool(deps)],
    [TOOL_NAMES.load, new LoadTool(deps)],
    [TOOL_NAMES.unload, new UnloadTool(deps)],
    [TOOL_NAMES.read, new ReadTool(deps)],
    [TOOL_NAMES.run_script, new RunScriptTool(deps)],
    [TOOL_NAMES.list_docs, new ListDocsTool(deps)],
    [TOOL_NAMES.select_docs, new SelectDocsTool(deps)],
    [CATALOG_TOOL_NAMES.runSkill, new RunSkillTool(deps)],
    [CATALOG_TOOL_NAMES.updateSkill, new UpdateSkillTool(deps)],
  ];
  for (const [name, tool] of tools) context.subscriptions.push(vscode.lm.registerTool(name, tool));
}
