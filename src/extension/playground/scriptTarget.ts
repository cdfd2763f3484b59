// Which skill script "Run Script…" is about: from a Skills view node, a file's URI (editor title or context
// menu), plain arguments (automation and tests), or picked by the user.
import { relativeInside } from '../../core/paths/resolveInRoot';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SkillRecord } from '../../core/registry/registryTypes';
import { isSkillNode } from '../tree/nodes';
import { sourceOf } from '../../core/sources';
import { localDisk } from '../../core/host/localDisk';
import { SKIP, walkSkillSync } from '../../core/paths/walkSkill';
import { compareStrings } from '../../core/text/compareStrings';

const host = localDisk;

/** A script of a skill, as the runtime addresses it. */
export interface ScriptTarget {
  skill: SkillRecord;
  /** Relative to the skill root, with forward slashes, e.g. `scripts/greet.sh`. */
  script: string;
}

/** Arguments a caller may pass instead of a node or a URI. */
export interface RunScriptArgs {
  skill?: string;
  script?: string;
  args?: string[];
}

const MAX_SCRIPTS = 500;

/** Files under the skill's `scripts/` folder (bounded: a skill with a vendored tree must not stall the picker). */
export function listScripts(skill: SkillRecord): string[] {
  const scripts = walkSkillSync(host, path.join(skill.rootDir, 'scripts'), { skipHidden: true, skipDirs: SKIP.dependencies, maxFiles: MAX_SCRIPTS, maxDepth: 4 });
  return scripts.sort(compareStrings).map((rel) => `scripts/${rel}`);
}

/** The usable skill holding `file`, and the file relative to its root; undefined when no skill holds it. */
export function scriptOfFile(skills: readonly SkillRecord[], file: string): ScriptTarget | undefined {
  // The innermost skill folder wins (a skill inside another skill's folder is its own skill).
  const holders = skills.filter((s) => !!relativeInside(s.rootDir, file));
  const skill = holders.sort((a, b) => b.rootDir.length - a.rootDir.length)[0];
  return skill ? { skill, script: relativeInside(skill.rootDir, file) ?? '' } : undefined;
}

/** Asks for a script of `skill`; undefined when it has none (the user is told) or the pick was dismissed. */
async function pickScript(skill: SkillRecord): Promise<string | undefined> {
  const scripts = listScripts(skill);
  if (!scripts.length) {
    void vscode.window.showInformationMessage(`Skill ${skill.name} has no scripts: there are no files under ${path.join(skill.rootDir, 'scripts')}.`);
    return undefined;
  }
  if (scripts.length === 1) return scripts[0];
  return (await vscode.window.showQuickPick(scripts, { placeHolder: `Script of ${skill.name} to run`, ignoreFocusOut: true })) ?? undefined;
}

/**
 * The script a command invocation is about. `arg` is a Skills view node, a URI, `RunScriptArgs`, or nothing (the
 * active editor's file if it is in a skill, else the user picks a skill and a script). Returns a message when the
 * caller named something that is not a skill script.
 */
export async function resolveScriptTarget(skills: readonly SkillRecord[], arg: unknown): Promise<ScriptTarget | { problem: string } | undefined> {
  if (isSkillNode(arg)) {
    const skill = skills.find((s) => s.id === arg.record.id) ?? arg.record;
    const script = await pickScript(skill);
    return script ? { skill, script } : undefined;
  }
  const uri = arg instanceof vscode.Uri ? arg : arg === undefined ? vscode.window.activeTextEditor?.document.uri : undefined;
  if (uri) {
    const found = uri.scheme === 'file' ? scriptOfFile(skills, uri.fsPath) : undefined;
    if (found) return found;
    if (arg instanceof vscode.Uri) return { problem: `${uri.fsPath} is not a file of a usable skill, so it cannot run as a skill script. Open a file under a skill's scripts/ folder, or pick a skill in the Skills view.` };
  }
  const given = (typeof arg === 'object' && arg !== null ? arg : {}) as RunScriptArgs;
  let skill: SkillRecord | undefined;
  if (given.skill !== undefined) {
    skill = skills.find((s) => s.id === given.skill) ?? skills.find((s) => s.name === given.skill);
    if (!skill) return { problem: `No usable skill named '${given.skill}'. Pick one of: ${skills.map((s) => s.name).join(', ') || '(none found)'}.` };
  } else {
    const withScripts = skills.filter((s) => fs.existsSync(path.join(s.rootDir, 'scripts')));
    if (!withScripts.length) return { problem: 'No usable skill has a scripts/ folder.' };
    const pick = await vscode.window.showQuickPick(
      withScripts.map((s) => ({ label: s.name, description: sourceOf(s.scope).scopeWord, detail: s.description, skill: s })),
      { placeHolder: 'Skill whose script to run', matchOnDetail: true, ignoreFocusOut: true },
    );
    skill = pick?.skill;
    if (!skill) return undefined;
  }
  const script = given.script ?? (await pickScript(skill));
  return script ? { skill, script } : undefined;
}
