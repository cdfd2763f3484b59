// Plugin scope: skills contributed by other installed extensions. The core maps manifests to roots
// (core/registry/pluginContributions); this file only reads `vscode.extensions` and follows its changes.
import * as vscode from 'vscode';
import { pluginContributions, type PluginContributions, type PluginPackage } from '../core/registry/pluginContributions';

/** Installed extensions whose folder is on this machine (remote and web-only ones cannot be read by the registry). */
export function installedPackages(): PluginPackage[] {
  return vscode.extensions.all.filter((e) => e.extensionUri.scheme === 'file').map((e) => ({ id: e.id, root: e.extensionPath, manifest: e.packageJSON as unknown }));
}

/**
 * The skills extensions contribute right now: `contributes.chatSkills` (VS Code's contribution point) and
 * `agentSkills.skills` folders. Extensions without either are not looked at on disk.
 */
export function readPluginContributions(): PluginContributions {
  return pluginContributions(installedPackages());
}

/** Rescans plugin skills when an extension is installed, removed, enabled or updated. */
export function registerPluginSkills(context: vscode.ExtensionContext, onChange: () => Promise<void>, log: vscode.LogOutputChannel): void {
  context.subscriptions.push(
    vscode.extensions.onDidChange(() => {
      onChange().catch((e: unknown) => log.error(`Rescanning skills of extensions failed: ${e instanceof Error ? e.message : String(e)}`));
    }),
  );
}
