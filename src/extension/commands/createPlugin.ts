// "Agent Skills: Create Plugin": asks where, the plugin's name and its first skill, writes a valid Agent Plugin
// atomically (the folder appears whole or not at all), adds the folder to agentSkills.pluginLocations so its skills
// show under Plugins at once, and opens plugin.json.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { createDirAtomic } from '../../core/edit/atomicWrite';
import { pluginNameProblem, pluginScaffold } from '../../core/plugins/pluginScaffold';
import { skillNameProblem } from '../../core/skill/skillSkeleton';
import { SECTION } from '../settings';
import type { SkillsService } from '../skillsService';

export async function createPlugin(service: SkillsService, preset?: { parent?: string; name?: string; skill?: string; description?: string }): Promise<vscode.Uri | undefined> {
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
  let parent = preset?.parent ?? folder?.uri.fsPath;
  if (!parent) {
    const picked = await vscode.window.showOpenDialog({ title: 'Create Plugin (1/3): folder to create the plugin in', canSelectFolders: true, canSelectFiles: false, canSelectMany: false });
    parent = picked?.[0]?.fsPath;
  }
  if (!parent) return undefined;
  const taken = (n: string) => fs.existsSync(path.join(parent, n));
  const name =
    preset?.name ??
    (await vscode.window.showInputBox({
      title: 'Create Plugin (1/3): name',
      prompt: `The plugin's folder under ${parent}, also its "name" in plugin.json`,
      placeHolder: 'team-tools',
      validateInput: (n) => pluginNameProblem(n) ?? (taken(n) ? `${path.join(parent, n)} already exists: pick another name.` : undefined),
    }));
  if (!name) return undefined;
  const skill =
    preset?.skill ??
    (await vscode.window.showInputBox({ title: 'Create Plugin (2/3): first skill', prompt: 'The name of the plugin\'s first skill (lower-case letters, digits and hyphens)', value: `${name.replace(/[^a-z0-9-]/g, '-')}-guide`, validateInput: skillNameProblem }));
  if (!skill) return undefined;
  const description =
    preset?.description ??
    (await vscode.window.showInputBox({ title: 'Create Plugin (3/3): what the skill does', prompt: 'What does it do, and when should it be used? The model sees only this before choosing it.', value: `Describe what ${skill} does. Use when the user asks for it.`, validateInput: (d) => (d.trim() ? undefined : 'Describe what the skill does and when to use it.') }));
  if (!description) return undefined;
  const problem = pluginNameProblem(name) ?? skillNameProblem(skill);
  if (problem) {
    void vscode.window.showErrorMessage(`Create Plugin: ${problem}`);
    return undefined;
  }
  const dir = path.join(parent, name);
  try {
    await createDirAtomic(dir, pluginScaffold(name, skill, description.replace(/\s+/g, ' ').trim()));
  } catch (e) {
    void vscode.window.showErrorMessage(`Could not create ${dir}: ${(e as Error).message}`);
    return undefined;
  }
  // Where the runtime reads plugins from: the workspace's settings when it is in the workspace, the user's otherwise.
  const config = vscode.workspace.getConfiguration(SECTION);
  const inWorkspace = folder && path.relative(folder.uri.fsPath, dir).split(path.sep)[0] !== '..';
  const target = inWorkspace ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  const current = (inWorkspace ? config.inspect<string[]>('pluginLocations')?.workspaceValue : config.inspect<string[]>('pluginLocations')?.globalValue) ?? [];
  const entry = inWorkspace ? path.relative(folder!.uri.fsPath, dir) : dir;
  if (!current.includes(entry)) await config.update('pluginLocations', [...current, entry], target);
  await service.reconfigure();
  const uri = vscode.Uri.file(path.join(dir, 'plugin.json'));
  await vscode.window.showTextDocument(uri);
  return uri;
}
