import * as vscode from 'vscode';
import { catalogAuditEntry } from '../../core/catalog/catalogAudit';
import { previewUpdate, invokeUpdateSkill } from '../../core/catalog/updateSkillTool';
import type { UpdateSkillInput } from '../../core/catalog/toolSchemas';
import { CATALOG_TOOL_NAMES } from '../ids';
import { catalogResultText } from './catalogResult';
import { textResult, type ToolDeps } from './runtimeTool';

/** Why updateSkill will not touch workspace skills now, or undefined when it may. */
export function workspaceWriteRefusal(input: Partial<UpdateSkillInput>, untrusted: boolean): string | undefined {
  if (!untrusted) return undefined;
  const target =
    input.action === 'create' && input.scope === 'workspace'
      ? 'create a workspace skill'
      : input.action === 'copy' && input.toScope === 'workspace'
        ? 'copy a skill into the workspace'
        : input.skill?.startsWith('workspace:')
          ? `change ${input.skill}`
          : undefined;
  if (!target) return undefined;
  return (
    `Error (untrusted-workspace): ${CATALOG_TOOL_NAMES.updateSkill} may not ${target}: this workspace is not trusted (VS Code Restricted Mode), so its skills are read-only and not offered. ` +
    'What to do: tell the user; they can trust the folder with "Workspaces: Manage Workspace Trust" and ask again, or you can work on a user skill (scope "user") instead.'
  );
}

const UNTRUSTED_NOT_FOUND = '\nNote: workspace skills are hidden and read-only while this workspace is not trusted; the user can trust it with "Workspaces: Manage Workspace Trust".';

/** Fences text in a Markdown code block that its own backticks cannot close. */
function codeBlock(text: string, lang: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text}\n${fence}`;
}

/**
 * `updateSkill` (seed 003): create and patch skills. Writes that are not dry runs ask the user first, showing the
 * line-numbered diff of a dry run; workspace skills are refused in an untrusted workspace. After a write the
 * shared registry rereads the skill, so the Skills view shows the new version.
 */
export class UpdateSkillTool implements vscode.LanguageModelTool<UpdateSkillInput> {
  constructor(private readonly deps: ToolDeps) {}

  async invoke(options: vscode.LanguageModelToolInvocationOptions<UpdateSkillInput>): Promise<vscode.LanguageModelToolResult> {
    const input = (options.input ?? {}) as Partial<UpdateSkillInput>;
    const { sessionId } = this.deps.router.route(CATALOG_TOOL_NAMES.updateSkill, input, options.toolInvocationToken);
    // Every call lands in the runtime's audit log, refusals included.
    const audit = (await this.deps.service.ready()).runtime.audit;
    const untrusted = this.deps.catalog.workspaceWritesBlocked;
    const refusal = workspaceWriteRefusal(input, untrusted);
    if (refusal) {
      this.deps.service.log.warn(`${CATALOG_TOOL_NAMES.updateSkill} refused: the workspace is not trusted`);
      audit?.append(catalogAuditEntry('updateSkill', input, { ok: false, error: { code: 'untrusted-workspace', message: refusal } }, sessionId, new Date(), 0));
      return textResult(refusal);
    }
    const catalog = await this.deps.catalog.ready();
    const r = await invokeUpdateSkill(catalog, input, { audit, sessionId });
    if (r.ok) {
      const what = 'skillId' in r ? r.skillId : input.skill;
      this.deps.service.log.info(`${CATALOG_TOOL_NAMES.updateSkill} ${r.action} ${what ?? ''}: ${'written' in r ? (r.written ? 'written' : 'nothing written') : 'done'}`);
    } else this.deps.service.log.warn(`${CATALOG_TOOL_NAMES.updateSkill} refused (${r.error.code}): ${r.error.message}`);
    return textResult(catalogResultText(r, !r.ok && untrusted && r.error.code.includes('not-found') ? UNTRUSTED_NOT_FOUND : ''));
  }

  async prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<UpdateSkillInput>): Promise<vscode.PreparedToolInvocation> {
    const input = (options.input ?? {}) as Partial<UpdateSkillInput>;
    const what = input.action === 'create' ? `${input.scope ?? ''} skill ${input.name ?? ''}`.trim() : (input.skill ?? 'a skill');
    if (workspaceWriteRefusal(input, this.deps.catalog.workspaceWritesBlocked)) {
      return { invocationMessage: `Not changing ${what}: this workspace is not trusted` };
    }
    if (input.dryRun) return { invocationMessage: `Checking the ${input.action ?? 'update'} of ${what} (dry run)…` };
    // Every real write asks; the dialog shows the dry run's diff, or why the dry run failed.
    const catalog = await this.deps.catalog.ready();
    const preview = await previewUpdate(catalog, input);
    const message = new vscode.MarkdownString();
    let title: string;
    if (preview.ok) {
      title = `${preview.title[0].toUpperCase()}${preview.title.slice(1)}?`;
      if (preview.diff) message.appendMarkdown(codeBlock(preview.diff, 'diff'));
      else message.appendMarkdown(input.action === 'archive' ? 'The skill leaves the catalog; restore brings it back.' : 'The archived skill comes back into the catalog.');
      for (const w of preview.warnings) message.appendMarkdown(`\n\n⚠ ${w.replace(/[\\`*_{}[\]<>]/g, '\\$&')}`);
    } else {
      title = `${input.action ?? 'Update'} ${what}?`;
      message.appendMarkdown(`The dry run failed, so this call will most likely fail the same way and write nothing:\n\n${codeBlock(preview.error.message, 'text')}`);
    }
    return { invocationMessage: `Updating ${what}…`, confirmationMessages: { title, message } };
  }
}
