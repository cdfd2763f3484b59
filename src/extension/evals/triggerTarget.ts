// Which skill and trigger file an evals command works on: the URI it was given (the trigger file or the SKILL.md,
// from a code lens or the explorer), else the active editor's, else the skill the user picks.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { TRIGGER_QUERIES_FILE } from '../../core/evals';
import type { SkillRecord } from '../../core/registry/registryTypes';
import type { SkillsService } from '../skillsService';

/** A skill and where its trigger set is (the file may not exist yet). */
export interface TriggerTarget {
  record: SkillRecord;
  /** Absolute path of `evals/trigger-queries.json` in the skill's folder. */
  file: string;
}

/** The skill folder a file belongs to when it is the skill's SKILL.md or its trigger file. */
function skillFolderOf(file: string): string | undefined {
  if (path.basename(file) === 'SKILL.md') return path.dirname(file);
  if (file.endsWith(path.join(...TRIGGER_QUERIES_FILE.split('/')))) return path.dirname(path.dirname(file));
  return undefined;
}

function uriOf(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  if (typeof arg === 'string' && arg) return arg.includes('://') ? vscode.Uri.parse(arg) : vscode.Uri.file(arg);
  return undefined;
}

/**
 * The target of a command. `needFile`: only skills whose trigger file exists are offered in the pick (testing needs
 * one, drafting does not). Undefined when the user dismissed the pick; throws when the given file is no skill's.
 */
export async function triggerTarget(service: SkillsService, arg: unknown, needFile: boolean): Promise<TriggerTarget | undefined> {
  const registry = await service.registryReady();
  const skills = registry.usable();
  const given = uriOf(arg) ?? (arg === undefined ? vscode.window.activeTextEditor?.document.uri : undefined);
  const folder = given?.scheme === 'file' ? skillFolderOf(given.fsPath) : undefined;
  if (folder) {
    const record = skills.find((r) => path.resolve(r.rootDir) === path.resolve(folder));
    if (record) return { record, file: path.join(record.rootDir, ...TRIGGER_QUERIES_FILE.split('/')) };
    if (uriOf(arg)) throw new Error(`${given!.fsPath} is not in a skill this window uses (no usable skill has the folder ${folder}). Open a skill's SKILL.md or ${TRIGGER_QUERIES_FILE} and run the command again.`);
  } else if (uriOf(arg)) {
    throw new Error(`${given!.fsPath} is neither a SKILL.md nor a skill's ${TRIGGER_QUERIES_FILE}. Open one of them and run the command again.`);
  }
  const fileOf = (r: SkillRecord) => path.join(r.rootDir, ...TRIGGER_QUERIES_FILE.split('/'));
  const candidates: SkillRecord[] = [];
  for (const r of skills) {
    if (!needFile) candidates.push(r);
    else if (await service.host.kind(fileOf(r))) candidates.push(r);
  }
  if (!candidates.length) {
    throw new Error(needFile ? `No skill has ${TRIGGER_QUERIES_FILE} yet. Run "Agent Skills: Draft Trigger Requests" on a skill first.` : 'No Agent Skills found in this window.');
  }
  const pick = await vscode.window.showQuickPick(
    candidates.map((r) => ({ label: r.name, description: r.description.slice(0, 80), record: r })),
    { placeHolder: needFile ? 'Skill whose trigger requests to test' : 'Skill to draft trigger requests for', ignoreFocusOut: true },
  );
  return pick ? { record: pick.record, file: fileOf(pick.record) } : undefined;
}

/** The model the user picks (models that can call tools; a given id picks without asking). */
export async function pickModel(modelId?: string): Promise<vscode.LanguageModelChat | undefined> {
  const models = await vscode.lm.selectChatModels();
  if (!models.length) throw new Error('No language model is available in this window. Sign in to GitHub Copilot (or install a model provider), then run the command again.');
  if (modelId) {
    const m = models.find((x) => x.id === modelId);
    if (!m) throw new Error(`No model with id "${modelId}"; available: ${models.map((x) => x.id).join(', ')}.`);
    return m;
  }
  if (models.length === 1) return models[0];
  const pick = await vscode.window.showQuickPick(
    models.map((m) => ({ label: m.name, description: `${m.vendor} · ${m.family}`, detail: `${m.maxInputTokens} input tokens`, model: m })),
    { placeHolder: 'Model to ask (its quota is spent)', ignoreFocusOut: true },
  );
  return pick?.model;
}

/**
 * A file's text as the author sees it: an open editor's unsaved edits, else the disk (an open but saved document is
 * not asked: VS Code may still hold a closed document's old text). Undefined when the file does not exist; a file
 * over `maxBytes` is refused naming it.
 */
export async function currentText(file: string, maxBytes: number): Promise<string | undefined> {
  const dirty = vscode.workspace.textDocuments.find((d) => d.isDirty && d.uri.scheme === 'file' && path.resolve(d.uri.fsPath) === path.resolve(file));
  if (dirty) return dirty.getText();
  const uri = vscode.Uri.file(file);
  const stat = await Promise.resolve(vscode.workspace.fs.stat(uri)).catch(() => undefined);
  if (!stat) return undefined;
  if (stat.size > maxBytes) throw new Error(`${file} is ${stat.size} bytes, over the ${maxBytes} read. Make it smaller, then run the command again.`);
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
}
