// What a run of an Agent Plugin's skill gets (Agent Plugins 1.0 §9.1): its plugin's root and data folder. The
// plugin kind's reader (src/core/sourceReaders/agentPlugins.ts) adds it to each run.
import * as crypto from 'node:crypto';
import * as path from 'node:path';
import type { PluginRunContext } from '../exec/execTypes';
import type { PluginOfRoot } from '../registry/registryTypes';
import { PLUGIN_NAME } from './pluginManifest';

/** The names Claude Code gives its plugins' scripts (its documentation), beside the standard's two. */
const CLAUDE_ALIASES = { CLAUDE_PLUGIN_ROOT: 'root', CLAUDE_PLUGIN_DATA: 'data', CLAUDE_SKILL_DIR: 'skill' } as const;

/**
 * The data folder of a plugin under `dataRoot`: one per plugin name, so it is kept across updates (a new version
 * has a new folder but the same name). A name that is not a safe folder name (host layouts are laxer than §5.5)
 * gets a digest instead.
 */
export function pluginDataDir(dataRoot: string, pluginName: string): string {
  const safe = PLUGIN_NAME.test(pluginName) && pluginName.length <= 64 ? pluginName : `x-${crypto.createHash('sha256').update(pluginName).digest('hex').slice(0, 32)}`;
  return path.join(dataRoot, safe);
}

/** What a run of a skill of `plugin` gets. */
export function pluginRunContext(plugin: PluginOfRoot, dataRoot: string): PluginRunContext {
  return { root: plugin.root, dataDir: pluginDataDir(dataRoot, plugin.name), ...(plugin.layout === 'claude' ? { aliases: CLAUDE_ALIASES } : {}) };
}
