// Keeps the registry in step with the disk and the settings: a SKILL.md created, changed or deleted
// refreshes its skill (the tree follows within the watcher's delay); settings and trust rebuild the roots.
import * as vscode from 'vscode';
import { SkillsService } from './skillsService';

export function registerWatchers(context: vscode.ExtensionContext, service: SkillsService): void {
  const onFile = (uri: vscode.Uri) => {
    service.refreshSkillFile(uri).catch((e: unknown) => service.log.error(`Refreshing ${uri.fsPath} failed: ${(e as Error).message}`));
  };
  const onDir = (uri: vscode.Uri) => {
    service.refreshSkillDir(uri.fsPath).catch((e: unknown) => service.log.error(`Refreshing ${uri.fsPath} failed: ${(e as Error).message}`));
  };
  const watchers: vscode.FileSystemWatcher[] = [];
  const watch = () => {
    for (const w of watchers.splice(0)) w.dispose();
    for (const r of service.roots()) {
      const base = vscode.Uri.file(r.path);
      // A SKILL.md created, changed or deleted in a skill folder of this root ...
      const files = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(base, '*/SKILL.md'));
      files.onDidCreate(onFile);
      files.onDidChange(onFile);
      files.onDidDelete(onFile);
      // ... and skill folders created or deleted whole (a folder removal reports only the folder).
      const dirs = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(base, '*'), false, true, false);
      dirs.onDidCreate(onDir);
      dirs.onDidDelete(onDir);
      watchers.push(files, dirs);
    }
  };
  const reconfigure = () => {
    service.reconfigure().catch((e: unknown) => service.log.error(`Applying the settings failed: ${(e as Error).message}`));
    watch();
  };
  watch();
  context.subscriptions.push(
    { dispose: () => watchers.splice(0).forEach((w) => w.dispose()) },
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (SkillsService.affectsRuntime(e) || e.affectsConfiguration('chat.useAgentSkills') || e.affectsConfiguration('chat.agentSkillsLocations')) reconfigure();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(reconfigure),
    vscode.workspace.onDidChangeWorkspaceFolders(reconfigure),
  );
}
