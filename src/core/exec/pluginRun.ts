// What a run of an Agent Plugin's skill gets of its plugin (Agent Plugins 1.0 §9.1): the plugin's folder,
// shown read-only, and its data folder, made before the run and writable. Both are checked here, before
// anything is staged, so a bad request is refused with the field named.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ScriptRunError } from './scriptRunError';
import type { PluginRunContext } from './execTypes';

/** The plugin parts of one run: variables, the folder bound read-only and the folder bound writable. */
export interface PluginRunParts {
  env: Record<string, string>;
  readOnly: string[];
  writable: string[];
}

const NONE: PluginRunParts = { env: {}, readOnly: [], writable: [] };

/**
 * Checks `plugin` and makes its data folder (private to the user: 0700). `stagedSkillDir` is the run's copy of
 * the skill, which `skill` aliases (CLAUDE_SKILL_DIR) point at, so an edited skill's scripts see their edits.
 */
export function pluginRunParts(plugin: PluginRunContext | undefined, stagedSkillDir: string): PluginRunParts {
  if (!plugin) return NONE;
  for (const [field, dir] of [['plugin.root', plugin.root], ['plugin.dataDir', plugin.dataDir]] as const) {
    if (!path.isAbsolute(dir)) throw new ScriptRunError('invalid_request', `${field} "${dir}" must be an absolute folder path.`);
  }
  let root: string;
  try {
    root = fs.realpathSync.native(plugin.root);
  } catch {
    throw new ScriptRunError('not_found', `plugin.root ${plugin.root} does not exist on this machine's disk; reload the skill list (the plugin may have been removed). A plugin's scripts run only from a plugin installed on the local disk.`);
  }
  if (!fs.statSync(root).isDirectory()) throw new ScriptRunError('not_found', `plugin.root ${plugin.root} is not a folder; reload the skill list.`);
  fs.mkdirSync(plugin.dataDir, { recursive: true, mode: 0o700 });
  const data = fs.realpathSync.native(plugin.dataDir);
  if (!fs.statSync(data).isDirectory()) throw new ScriptRunError('invalid_request', `plugin.dataDir ${plugin.dataDir} is not a folder; remove the file in its place.`);
  const values = { root, data, skill: stagedSkillDir };
  const env: Record<string, string> = { PLUGIN_ROOT: root, PLUGIN_DATA: data };
  for (const [name, which] of Object.entries(plugin.aliases ?? {})) env[name] = values[which];
  return { env, readOnly: [root], writable: [data] };
}
