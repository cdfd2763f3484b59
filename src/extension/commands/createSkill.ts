// "Agent Skills: Create Skill": asks the scope and the name, writes a valid skeleton atomically (the whole
// folder appears at once or not at all) and opens its SKILL.md.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { createDirAtomic } from '../../core/edit/atomicWrite';
import { skillNameProblem, skillSkeleton } from '../../core/skill/skillSkeleton';
import type { SkillsService } from '../skillsService';

export { skillNameProblem, skillSkeleton, suggestSkillName } from '../../core/skill/skillSkeleton';

export async function createSkill(service: SkillsService, preset?: { scope?: 'workspace' | 'user'; name?: string; description?: string }): Promise<vscode.Uri | undefined> {
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
  const scopes = [
    ...(folder ? [{ label: 'Workspace', detail: path.join(folder.uri.fsPath, '.github', 'skills'), scope: 'workspace' as const }] : []),
    { label: 'User', detail: path.join(os.homedir(), '.copilot', 'skills'), scope: 'user' as const },
  ];
  const scope = preset?.scope
    ? scopes.find((s) => s.scope === preset.scope)
    : await vscode.window.showQuickPick(scopes, { title: 'Create Skill (1/3): location', placeHolder: 'Where should the new skill live?' });
  if (!scope) return undefined;
  const taken = (n: string) => fs.existsSync(path.join(scope.detail, n));
  const name =
    preset?.name ??
    (await vscode.window.showInputBox({
      title: 'Create Skill (2/3): name',
      prompt: `The skill's folder name under ${scope.detail}, also its \`name:\` (lower-case letters, digits and hyphens)`,
      placeHolder: 'pdf-processing',
      validateInput: (n) => skillNameProblem(n) ?? (taken(n) ? `${path.join(scope.detail, n)} already exists: pick another name.` : undefined),
    }));
  if (!name) return undefined;
  const problem = skillNameProblem(name);
  if (problem) {
    void vscode.window.showErrorMessage(`Skill name "${name}": ${problem}`);
    return undefined;
  }
  const description =
    preset?.description ??
    (await vscode.window.showInputBox({
      title: 'Create Skill (3/3): description',
      prompt: 'What does it do, and when should it be used? The model sees only this before choosing the skill (at most 1024 characters).',
      value: `Describe what ${name} does. Use when the user asks for it.`,
      validateInput: (d) => (!d.trim() ? 'Describe what the skill does and when to use it.' : [...d].length > 1024 ? `At most 1024 characters (this one has ${[...d].length}).` : undefined),
    }));
  if (!description) return undefined;
  const dir = path.join(scope.detail, name);
  try {
    await createDirAtomic(dir, [{ path: 'SKILL.md', content: skillSkeleton(name, description.replace(/\s+/g, ' ').trim()) }]);
  } catch (e) {
    void vscode.window.showErrorMessage(`Could not create ${dir}: ${(e as Error).message}`);
    return undefined;
  }
  const uri = vscode.Uri.file(path.join(dir, 'SKILL.md'));
  await service.refresh();
  await vscode.window.showTextDocument(uri);
  return uri;
}
