// What a run of an Agent Plugin's skill gets (Agent Plugins 1.0 §9.1): its plugin's root and data folder. The
// plugin kind's reader (src/core/sourceReaders/agentPlugins.ts) adds it to each run.
import * as crypto from 'node:crypto';
import * as path from 'node:path';
import type { PluginRunContext } from '../exec/execTypes';
import { realPathOr } from '../os/realPathOr';
import type { PluginOfRoot } from '../registry/registryTypes';
import { PLUGIN_NAME } from './pluginManifest';

/** The names Claude Code gives its plugins' scripts (its documentation), beside the standard's two. */
const CLAUDE_ALIASES = { CLAUDE_PLUGIN_ROOT: 'root', CLAUDE_PLUGIN_DATA: 'data', CLAUDE_SKILL_DIR: 'skill' } as const;

/** What names a plugin's data folder: its manifest's name and version, and the folder it is installed in. */
export interface PluginDataKey {
  name: string;
  /** Absolute path of the plugin folder (its real path is what counts). */
  root: string;
  version?: string;
}

/**
 * Where a plugin is installed, as its data folder is keyed: the folder's real path, less a last segment that is
 * the manifest's version (a host that keeps each version in a folder of its own under one plugin folder, Claude
 * Code's `cache/<marketplace>/<plugin>/<version>`, keeps one data folder across updates).
 */
export function pluginInstallPlace(plugin: PluginDataKey): string {
  const real = realPathOr(plugin.root);
  return plugin.version && path.basename(real) === plugin.version ? path.dirname(real) : real;
}

/**
 * The data folder of a plugin under `dataRoot`: one per plugin name and install place, so it is kept across updates
 * (a new version in a new folder beside the old one, or in place) but never shared with another plugin that gives the
 * same name: a name is only what a manifest says, and a folder shared by name let any plugin read and plant files
 * in the data of the plugin it named (red team, test/cli/pluginData.redteam.test.ts). A name that is not
 * a safe folder name (host layouts are laxer than §5.5) gets a digest instead.
 */
export function pluginDataDir(dataRoot: string, plugin: PluginDataKey): string {
  const { name } = plugin;
  const safe = PLUGIN_NAME.test(name) && name.length <= 64 ? name : `x-${crypto.createHash('sha256').update(name).digest('hex').slice(0, 32)}`;
  const place = crypto.createHash('sha256').update(pluginInstallPlace(plugin)).digest('hex').slice(0, 16);
  return path.join(dataRoot, `${safe}-${place}`);
}

/**
 * What a run confirmation says of a plugin skill's run beyond the sandbox's own account: the plugin folders it
 * reaches (README, Plugins: Scripts). The data folder outlives the run and is the HOME of the plugin's MCP servers,
 * which run outside the sandbox, so a question that said "writes only its run folder" did not tell the truth.
 */
export function pluginRunReach(plugin: { root: string; dataDir: string }): string {
  return `It also reads its plugin's folder ${plugin.root} and can write the plugin's data folder ${plugin.dataDir}, which is kept between runs and is the HOME of the plugin's MCP servers (they run outside the sandbox).`;
}

/** What a run of a skill of `plugin` gets. */
export function pluginRunContext(plugin: PluginOfRoot, dataRoot: string): PluginRunContext {
  return { root: plugin.root, dataDir: pluginDataDir(dataRoot, plugin), ...(plugin.layout === 'claude' ? { aliases: CLAUDE_ALIASES } : {}) };
}
