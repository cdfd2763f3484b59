// "Agent Skills: Draft Trigger Requests": the user's model writes should and near-miss should-not requests from the
// SKILL.md and the skills nearest to it in the index; the answer is read strictly (core/evals/triggerDrafts.ts) and
// written to the skill's evals/trigger-queries.json (atomically; an existing file is replaced or appended to only
// when the user says so), then opened for the author to edit.
import * as vscode from 'vscode';
import { assignSplits, checkTriggerQueries, draftPrompt, newQueries, parseDraftedQueries, triggerFileText, type SkillBrief, type TriggerQuery } from '../../core/evals';
import { searchSkills, type SearchableSkill } from '../../core/index/skillSearch';
import type { SkillsService } from '../skillsService';
import { askModel, skillBrief } from './askModel';
import { pickModel, triggerTarget, type TriggerTarget } from './triggerTarget';

/** How many neighbouring skills the prompt shows. */
const NEIGHBOURS = 5;

/** Options a caller may give instead of the prompts. */
export interface DraftOptions {
  model?: string;
  /** What to do with an existing file: without it the user is asked. */
  existing?: 'replace' | 'append';
}

/** What the command answers (for automation). */
export interface DraftResult {
  file: string;
  /** Requests written by this draft (after dropping repeats). */
  added: number;
  total: number;
}

/** The skills nearest to `target` in the index, by its description (itself left out). */
async function neighbours(service: SkillsService, target: TriggerTarget): Promise<SkillBrief[]> {
  const { runtime } = await service.ready();
  const index = await runtime.index();
  const byId = new Map<string, SearchableSkill>(runtime.served().filter((r) => r.id !== target.record.id).map((r) => [r.id, r]));
  return searchSkills(index, byId, `${target.record.name} ${target.record.description}`, { limit: NEIGHBOURS }).matches.map((m) => ({ name: m.name, description: m.description }));
}

/** The requests already in the file (undefined: no file), and whether it is free of errors (else append would lose some). */
async function existingQueries(service: SkillsService, target: TriggerTarget): Promise<{ queries: TriggerQuery[]; valid: boolean } | undefined> {
  const read = await service.host.readFile(target.file);
  if (!read) return undefined;
  const check = checkTriggerQueries(new TextDecoder().decode(read.bytes), { skill: target.record.name, file: target.file });
  return { queries: check.queries, valid: !check.findings.some((f) => f.severity === 'error') };
}

export async function draftTriggerRequests(service: SkillsService, arg?: unknown, options: DraftOptions = {}): Promise<DraftResult | undefined> {
  try {
    const target = await triggerTarget(service, arg, false);
    if (!target) return undefined;
    const existing = await existingQueries(service, target);
    let mode: 'new' | 'replace' | 'append' = existing ? (options.existing ?? 'replace') : 'new';
    if (existing && !options.existing) {
      const pick = await vscode.window.showQuickPick(
        [
          { label: 'Append new requests', detail: `Keep the ${existing.queries.length} request(s) in the file and add the drafted ones it does not have.`, mode: 'append' as const },
          { label: 'Replace the file', detail: 'Write only the drafted requests.', mode: 'replace' as const },
        ],
        { title: `${target.file} exists`, placeHolder: 'Append or replace? (Escape cancels)', ignoreFocusOut: true },
      );
      if (!pick) return undefined;
      mode = pick.mode;
    }
    if (mode === 'append' && !existing?.valid) {
      throw new Error(`${target.file} is not a valid trigger set (see the Problems view), so requests cannot be appended to it. Fix it, or choose Replace.`);
    }
    const model = await pickModel(options.model);
    if (!model) return undefined;
    const skill = target.record.name;
    const drafted = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Drafting trigger requests for ${skill} with ${model.name}`, cancellable: true },
      async (_p, token) => parseDraftedQueries(await askModel(model, draftPrompt(skillBrief(target.record), await neighbours(service, target)), `Draft trigger test requests for the skill ${skill}.`, token), skill),
    );
    const kept = mode === 'append' ? (existing?.queries ?? []) : [];
    const added = assignSplits(newQueries(kept, drafted));
    const all = [...kept, ...added];
    // Atomic (temp + rename) through the window's file host.
    await service.host.writeFile(target.file, triggerFileText(all));
    await vscode.window.showTextDocument(vscode.Uri.file(target.file), { preview: false });
    return { file: target.file, added: added.length, total: all.length };
  } catch (e) {
    void vscode.window.showErrorMessage(`Draft Trigger Requests: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
}
