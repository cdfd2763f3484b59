import * as vscode from 'vscode';
import { TOOL_NAMES } from './ids';

/** Input of `skills_list`; every field optional, so `{}` is a valid call. */
export interface SkillsListInput {
  /** Only skills whose name or description contains this text (case-insensitive). */
  filter?: string;
}

/**
 * Lists the skills available to the model. A placeholder until the registry is wired in:
 * it answers that there are no skills yet.
 */
export class SkillsListTool implements vscode.LanguageModelTool<SkillsListInput> {
  async invoke(
    _options: vscode.LanguageModelToolInvocationOptions<SkillsListInput>,
    _token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelToolResult> {
    return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart('no skills yet')]);
  }
}

/** Registers the `skills_list` tool. */
export function registerSkillsListTool(context: vscode.ExtensionContext): void {
  context.subscriptions.push(vscode.lm.registerTool(TOOL_NAMES.list, new SkillsListTool()));
}
