import * as vscode from 'vscode';
import { invokeRunSkill } from '../../core/catalog/runSkillTool';
import type { RunSkillInput } from '../../core/catalog/toolSchemas';
import { CATALOG_TOOL_NAMES } from '../ids';
import { catalogResultText } from './catalogResult';
import { signalOf, textResult, type ToolDeps } from './runtimeTool';

const UNTRUSTED_NOTE = '\nNote: workspace skills are not offered while this workspace is not trusted; the user can trust it with "Workspaces: Manage Workspace Trust".';

/**
 * `runSkill` (seed 003): list, inspect (in full, in explicit parts when large) and run skills of the unified
 * catalog. `run` loads the skill into the calling chat's session, as load_skills would.
 */
export class RunSkillTool implements vscode.LanguageModelTool<RunSkillInput> {
  constructor(private readonly deps: ToolDeps) {}

  async invoke(options: vscode.LanguageModelToolInvocationOptions<RunSkillInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const input: unknown = options.input ?? {};
    const { sessionId } = this.deps.router.route(CATALOG_TOOL_NAMES.runSkill, input, options.toolInvocationToken);
    const abort = signalOf(token);
    try {
      const catalog = await this.deps.catalog.ready();
      const audit = (await this.deps.service.ready()).runtime.audit;
      const r = await invokeRunSkill(catalog, input, { sessionId }, { sessions: this.deps.catalog.sessions, audit });
      const untrusted = !r.ok && this.deps.catalog.workspaceWritesBlocked ? UNTRUSTED_NOTE : '';
      if (r.ok) this.deps.service.log.info(`${CATALOG_TOOL_NAMES.runSkill} ${r.action}: ok`);
      else this.deps.service.log.warn(`${CATALOG_TOOL_NAMES.runSkill} refused (${r.error.code}): ${r.error.message}`);
      return textResult(catalogResultText(r, untrusted));
    } finally {
      abort.dispose();
    }
  }

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<RunSkillInput>): vscode.PreparedToolInvocation {
    const i = options.input ?? ({} as RunSkillInput);
    switch (i.action) {
      case 'inspect':
        return { invocationMessage: `Inspecting ${i.skill ?? 'a skill'}${i.file ? `/${i.file}` : ''}…` };
      case 'run':
        return { invocationMessage: `Running skill ${i.skill ?? ''}…` };
      default:
        return { invocationMessage: i.query ? `Listing skills matching "${i.query}"…` : 'Listing skills…' };
    }
  }
}
