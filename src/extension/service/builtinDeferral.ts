// Deferral to VS Code's built-in skill support: agents other than @skills already get from VS Code the skills
// in the folders it reads and those extensions contribute through chatSkills, so our tools leave those out.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SkillRecord } from '../../core/registry/registryTypes';
import { WINDOW_SESSION_PREFIX } from '../ids';
import { readBuiltinSkills, SECTION } from '../settings';

/**
 * The usable skills our tools list in `sessionId`: without those VS Code's own skill support lists already (its
 * skill folders, extensions' chatSkills, and, with `chat.plugins.enabled`, the skills of agent plugins it knows:
 * `vscodePluginRoots`, the plugins in its installed list or `chat.pluginLocations`).
 */
export function listableSkills(usable: SkillRecord[], sessionId: string, workspaceFolders: string[], chatSkillDirs: readonly string[], vscodePluginRoots: ReadonlySet<string> = new Set()): SkillRecord[] {
  // Read live: a settings change must apply to the very next call, not after the runtime is rebuilt.
  const defer = vscode.workspace.getConfiguration(SECTION).get<boolean>('deferToBuiltinSkills') !== false;
  if (!sessionId.startsWith(WINDOW_SESSION_PREFIX) || !defer) return usable;
  const pluginsServed = vscode.workspace.getConfiguration('chat').get<boolean>('plugins.enabled') === true && vscodePluginRoots.size > 0;
  const servedByVscode = (r: SkillRecord) => pluginsServed && r.root.plugin !== undefined && vscodePluginRoots.has(r.root.plugin.root);
  const builtin = readBuiltinSkills(workspaceFolders);
  if (!builtin.enabled) return pluginsServed ? usable.filter((r) => !servedByVscode(r)) : usable;
  const covered = new Set(builtin.folders.map((f) => path.resolve(f)));
  const contributed = new Set(chatSkillDirs);
  return usable.filter((r) => !covered.has(path.resolve(r.root.path)) && !contributed.has(r.rootDir) && !servedByVscode(r));
}
