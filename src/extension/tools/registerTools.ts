import * as vscode from 'vscode';
import { TOOL_NAMES } from '../ids';
import { ListDocsTool } from './listDocsTool';
import { ListSkillsTool } from './listSkillsTool';
import { LoadTool } from './loadTool';
import { ReadTool } from './readTool';
import { RunScriptTool } from './runScriptTool';
import type { ToolDeps } from './runtimeTool';
import { SelectDocsTool } from './selectDocsTool';
import { UnloadTool } from './unloadTool';

/** Registers every Language Model Tool the manifest contributes. */
export function registerTools(context: vscode.ExtensionContext, deps: ToolDeps): void {
  const tools: [string, vscode.LanguageModelTool<never>][] = [
    [TOOL_NAMES.list, new ListSkillsTool(deps)],
    [TOOL_NAMES.load, new LoadTool(deps)],
    [TOOL_NAMES.unload, new UnloadTool(deps)],
    [TOOL_NAMES.read, new ReadTool(deps)],
    [TOOL_NAMES.run_script, new RunScriptTool(deps)],
    [TOOL_NAMES.list_docs, new ListDocsTool(deps)],
    [TOOL_NAMES.select_docs, new SelectDocsTool(deps)],
  ];
  for (const [name, tool] of tools) context.subscriptions.push(vscode.lm.registerTool(name, tool));
}
