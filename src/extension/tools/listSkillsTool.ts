import * as vscode from 'vscode';
import { renderAvailableSkills } from '../../core/prompt/availableSkills';
import { TOOL_NAMES } from '../ids';
import { listSkillsInput, type ListSkillsInput } from './listSkillsInput';
import { textResult, type ToolDeps } from './runtimeTool';


/**
 * `list_skills`: the `<available_skills>` catalog for agents that do not get one in their instructions
 * (Copilot's agent mode). Leaves out skills VS Code's own skill support already lists to that agent.
 */
export class ListSkillsTool implements vscode.LanguageModelTool<ListSkillsInput> {
  constructor(private readonly deps: ToolDeps) {}

  async invoke(options: vscode.LanguageModelToolInvocationOptions<ListSkillsInput>): Promise<vscode.LanguageModelToolResult> {
    const parsed = listSkillsInput.safeParse(options.input ?? {});
    if (!parsed.success) {
      return textResult(`Error (invalid_input): ${parsed.error.issues.map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`).join('; ')}\nWhat to do: call ${TOOL_NAMES.list} with {} or { "filter": "<text>" }.`);
    }
    const registry = await this.deps.service.registryReady();
    const { sessionId } = this.deps.router.route(TOOL_NAMES.list, options.input, options.toolInvocationToken);
    const filter = parsed.data.filter?.toLowerCase();
    const listable = this.deps.service.listableSkills(registry, sessionId);
    const deferred = registry.usable().length - listable.length;
    const skills = listable
      .filter((r) => !filter || r.name.toLowerCase().includes(filter) || r.description.toLowerCase().includes(filter));
    const builtin = deferred ? `\n${deferred} more skill(s) are listed by VS Code's own skill support (chat.useAgentSkills) and left out here.` : '';
    const untrusted = (vscode.workspace.isTrusted ? '' : '\nWorkspace skills are not offered because this workspace is not trusted; the user can trust it with "Workspaces: Manage Workspace Trust".') + builtin;
    if (!skills.length) {
      return textResult(`No skills${filter ? ` match "${parsed.data.filter}"` : ' are available'}.${untrusted}\nWhat to do: answer without a skill, or tell the user they can create one with the command "Agent Skills: Create Skill".`);
    }
    const catalog = renderAvailableSkills(skills.map((r) => ({ name: r.name, description: r.description, location: r.location })));
    return textResult(`${catalog}\nTo use a skill, call ${TOOL_NAMES.load} with its name, then follow its instructions.${untrusted}`);
  }

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<ListSkillsInput>): vscode.PreparedToolInvocation {
    const f = options.input?.filter;
    return { invocationMessage: f ? `Listing skills matching "${f}"…` : 'Listing skills…' };
  }
}
