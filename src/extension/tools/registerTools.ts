import * as vscode from 'vscode';
import { TOOLS } from '../../core/toolTable/toolTable';
import { DescriptorTool, type ToolDeps } from './descriptorTool';

/**
 * Registers every tool of the core's table (what the manifest contributes), whatever agentSkills.toolSurface
 * says: VS Code needs them registered to match the static contributions. The surface decides what models are
 * offered (the manifest's `when` clauses for Copilot's agent, offeredToolNames for @skills); a tool outside it
 * that is still invoked directly (vscode.lm.invokeTool by another extension) answers as usual.
 */
export function registerTools(context: vscode.ExtensionContext, deps: ToolDeps): void {
  for (const tool of TOOLS) context.subscriptions.push(vscode.lm.registerTool(tool.name, new DescriptorTool(tool, deps)));
}
