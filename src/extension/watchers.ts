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
  // A host installing, updating or removing an agent plugin rewrites its record: read the plugins again.
  const records = service.pluginInstallRecords().map((r) => {
    const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(r.base), r.pattern));
    w.onDidCreate(reconfigure);
    w.onDidChange(reconfigure);
    w.onDidDelete(reconfigure);
    return w;
  });
  // The lint configuration applies to the Skills view too: a configuration file or the rules setting changed, re-check.
  const lintConfig = vscode.workspace.createFileSystemWatcher('**/.agent-skills.{yaml,yml,json}');
  const recheck = () => void service.refresh().catch((e: unknown) => service.log.error(`Re-checking the skills failed: ${(e as Error).message}`));
  lintConfig.onDidCreate(recheck);
  lintConfig.onDidChange(recheck);
  lintConfig.onDidDelete(recheck);
  context.subscriptions.push(
    lintConfig,
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('agentSkills.validation.rules') || e.affectsConfiguration('agentSkills.validation.host')) recheck();
    }),
    ...records,
    { dispose: () => watchers.splice(0).forEach((w) => w.dispose()) },
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (SkillsService.affectsRuntime(e) || e.affectsConfiguration('chat.useAgentSkills') || e.affectsConfiguration('chat.agentSkillsLocations') || e.affectsConfiguration('chat.pluginLocations')) reconfigure();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(reconfigure),
    vscode.workspace.onDidChangeWorkspaceFolders(reconfigure),
  );
}
