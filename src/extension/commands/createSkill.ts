// "Agent Skills: Create Skill": asks the scope and the name, writes a valid skeleton atomically (the whole
// folder appears at once or not at all) and opens its SKILL.md.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { createDirAtomic } from '../../core/edit/atomicWrite';
import type { SkillsService } from '../skillsService';

const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A valid name close to what was typed ("My_Skill" -> "my-skill"), if there is one. */
export function suggestSkillName(name: string): string | undefined {
  const s = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 64).replace(/-+$/, '');
  return s && s !== name && NAME.test(s) ? s : undefined;
}

/** Why a name is not a valid skill name, or undefined when it is. */
export function skillNameProblem(name: string): string | undefined {
  if (!name) return 'Give the skill a name, e.g. "pdf-processing".';
  if (name.length > 64) return `At most 64 characters (this one has ${name.length}).`;
  if (!NAME.test(name)) {
    const hint = suggestSkillName(name);
    return `Lower-case letters, digits and single hyphens only, not starting or ending with a hyphen${hint ? `: try "${hint}"` : ' (e.g. "pdf-processing")'}.`;
  }
  return undefined;
}

/** The SKILL.md of a new skill: valid as written, with the parts to fill in said plainly. */
export function skillSkeleton(name: string, description: string): string {
  const title = name.split('-').map((w) => w[0].toUpperCase() + w.slice(1)).join(' ');
  const yamlValue = /^[\s\-?]|[:#'"{}[\],&*!|>%@`]|\s$/.test(description) ? JSON.stringify(description) : description;
  return `---\nname: ${name}\ndescription: ${yamlValue}\n---\n\n# ${title}\n\n## When to use\n\nDescribe the tasks this skill is for.\n\n## Steps\n\n1. First step.\n2. Second step.\n`;
}

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
