import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMMANDS } from '../ids';
import type { SkillLanguageClient } from '../languageClient';
import type { SkillsService } from '../skillsService';
import { skillFileOf } from '../tree/nodes';
import type { SkillsTree } from '../tree/registerTree';
import { createPlugin } from './createPlugin';
import { createSkill } from './createSkill';
import { registerSessionCommands } from './sessionCommands';
import { SkillValidation } from './validation';
import { sourceOf } from '../../core/sources';

/** Every command of the palette and the tree. */
export function registerCommands(context: vscode.ExtensionContext, service: SkillsService, tree: SkillsTree, client: SkillLanguageClient): void {
  const validation = new SkillValidation(service, (files) => client.validate(files));
  registerSessionCommands(context, service, tree);
  context.subscriptions.push(
    validation,
    vscode.commands.registerCommand(COMMANDS.createSkill, (preset?: Parameters<typeof createSkill>[1]) => createSkill(service, preset)),
    vscode.commands.registerCommand(COMMANDS.createPlugin, (preset?: Parameters<typeof createPlugin>[1]) => createPlugin(service, preset)),
    vscode.commands.registerCommand(COMMANDS.validateAll, async () => {
      const r = await validation.validateAll();
      await vscode.commands.executeCommand('workbench.actions.view.problems');
      void vscode.window.showInformationMessage(`Validated ${r.skills} skill(s): ${r.errors} error(s), ${r.warnings} warning(s). See the Problems view.`);
      return r;
    }),
    vscode.commands.registerCommand(COMMANDS.validateSkill, async (node?: unknown) => {
      const file = skillFileOf(node) ?? vscode.window.activeTextEditor?.document.uri.fsPath;
      if (!file) return void vscode.window.showInformationMessage('Select a skill in the Skills view, or open its SKILL.md.');
      const byFile = await validation.validateDir(path.dirname(file));
      for (const [f, ds] of byFile) validation.collection.set(vscode.Uri.file(f), ds);
      const n = [...byFile.values()].reduce((a, ds) => a + ds.length, 0);
      void vscode.window.showInformationMessage(n ? `${path.basename(path.dirname(file))}: ${n} problem(s), see the Problems view.` : `${path.basename(path.dirname(file))} is valid.`);
    }),
    vscode.commands.registerCommand(COMMANDS.openSkillFile, async (node?: unknown) => {
      const file = skillFileOf(node);
      if (file) await vscode.window.showTextDocument(vscode.Uri.file(file));
    }),
    vscode.commands.registerCommand(COMMANDS.revealSkill, async (node?: unknown) => {
      const file = skillFileOf(node);
      if (file) await vscode.commands.executeCommand('revealInExplorer', vscode.Uri.file(path.dirname(file)));
    }),
    vscode.commands.registerCommand(COMMANDS.showAuditLog, async () => {
      const file = path.join(service.stateDir, 'audit.jsonl');
      if (!fs.existsSync(file)) return void vscode.window.showInformationMessage('The audit log is empty: no skill tool has run in this workspace yet.');
      await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: true });
    }),
    vscode.commands.registerCommand(COMMANDS.openSkillsFolder, async () => {
      const roots = service.roots().filter((r) => fs.existsSync(r.path));
      if (!roots.length) return void vscode.window.showInformationMessage('No skills folder exists yet. Create a skill with "Agent Skills: Create Skill".');
      const pick = roots.length === 1 ? roots[0] : (await vscode.window.showQuickPick(roots.map((r) => ({ label: r.path, description: sourceOf(r.scope).scopeWord, root: r })), { placeHolder: 'Skills folder to open' }))?.root;
      if (!pick) return;
      const uri = vscode.Uri.file(pick.path);
      const inWorkspace = vscode.workspace.getWorkspaceFolder(uri) !== undefined;
      await vscode.commands.executeCommand(inWorkspace ? 'revealInExplorer' : 'revealFileInOS', uri);
    }),
    vscode.commands.registerCommand(COMMANDS.showOutput, () => service.log.show()),
  );
}
