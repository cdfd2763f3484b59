// "Agent Skills: Suggest a Better Description": from the last model run of a skill's trigger set with failures, the
// model proposes a description (shown the train split only); the author sees SKILL.md old vs proposed in a diff
// editor and applies or discards it. Applying goes through updateSkill (a revision with history, the audit line);
// then the validation split is run again and its report shows whether the change generalised.
import * as vscode from 'vscode';
import { failuresOf, parseSuggestedDescription, readLastReport, suggestPrompt } from '../../core/evals';
import { editFrontmatter } from '../../core/catalog/frontmatterEdit';
import { invokeUpdateSkill } from '../../core/catalog/updateSkillTool';
import { DEFAULT_MAX_READ_BYTES } from '../../core/host/readLimits';
import type { ReportDocuments } from '../playground/reportDocuments';
import type { SkillsService } from '../skillsService';
import type { WindowCatalog } from '../windowCatalog';
import { askModel, skillBrief } from './askModel';
import type { TestTriggersResult, TriggerTests } from './testTriggers';
import { currentText, pickModel, triggerTarget } from './triggerTarget';

export interface SuggestOptions {
  model?: string;
}

/** What the command answers (for automation). */
export interface SuggestResult {
  proposed: string;
  applied: boolean;
  /** The validation split's rerun after an applied change. */
  rerun?: TestTriggersResult;
}

export async function suggestDescription(
  deps: { service: SkillsService; catalog: WindowCatalog; reports: ReportDocuments; tests: TriggerTests; storageDir: string },
  arg?: unknown,
  options: SuggestOptions = {},
): Promise<SuggestResult | undefined> {
  try {
    const target = await triggerTarget(deps.service, arg, true);
    if (!target) return undefined;
    const skill = target.record.name;
    const report = await readLastReport(deps.service.host, deps.storageDir, target.file, 'model');
    if (!report) throw new Error(`${skill} has no complete model run of ${target.file} yet. Run "Agent Skills: Test Triggers" first.`);
    if (!failuresOf(report)) {
      void vscode.window.showInformationMessage(`Every request of the last run of ${skill} passed: there is nothing for a new description to fix.`);
      return undefined;
    }
    const model = await pickModel(options.model);
    if (!model) return undefined;
    const brief = skillBrief(target.record);
    const proposed = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Asking ${model.name} for a better description of ${skill}`, cancellable: true },
      async (_p, token) => parseSuggestedDescription(await askModel(model, suggestPrompt(brief, report), `Propose a better description for the skill ${skill}.`, token)),
    );
    const current = await currentText(target.record.location, DEFAULT_MAX_READ_BYTES);
    if (current === undefined) throw new Error(`${target.record.location} can no longer be read. Check that the skill is still there, then run the command again.`);
    const proposal = deps.reports.add(`SKILL.md of ${skill} (proposed description)`, editFrontmatter(current, { description: proposed }, target.record.location).text, `proposal-${Date.now()}`);
    await vscode.commands.executeCommand('vscode.diff', vscode.Uri.file(target.record.location), proposal, `${skill}: description now ↔ proposed`, { preview: false });
    const pick = await vscode.window.showQuickPick(
      [
        { label: 'Apply the proposed description', detail: 'Written through updateSkill (kept as a revision), then the validation split is tested again.', apply: true },
        { label: 'Discard it', apply: false },
      ],
      { title: `New description for ${skill}`, placeHolder: proposed.slice(0, 200), ignoreFocusOut: true },
    );
    if (!pick?.apply) return { proposed, applied: false };
    const { runtime } = await deps.service.ready();
    const out = await invokeUpdateSkill(await deps.catalog.ready(), { action: 'metadata', skill: target.record.id, fields: { description: proposed }, reason: 'trigger test: suggested description' }, { audit: runtime.audit, sessionId: 'user' });
    if (!out.ok) throw new Error(`the description was not written: ${out.error.message} ${out.error.hint ?? ''}`.trim());
    // The rerun composes with the new description: the registry reads the skill again first.
    await deps.service.refreshSkillFile(vscode.Uri.file(target.record.location));
    const rerun = await deps.tests.run(target.file, { model: model.id, split: 'validation' });
    return { proposed, applied: true, ...(rerun ? { rerun } : {}) };
  } catch (e) {
    void vscode.window.showErrorMessage(`Suggest a Better Description: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
}
