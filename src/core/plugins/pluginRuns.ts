// Runs of an Agent Plugin's skills get their plugin (Agent Plugins 1.0 §9.1): the executor in front of the
// runner looks up which plugin the skill folder belongs to and adds its root and data folder to the request.
import * as crypto from 'node:crypto';
import * as path from 'node:path';
import type { PluginRunContext } from '../exec/execTypes';
import type { SkillRegistry } from '../registry/skillRegistry';
import type { PluginOfRoot } from '../registry/registryTypes';
import type { ExecRequest, ScriptExecutor } from '../runtime/runtimeTypes';
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

/**
 * `executor` with each run of a plugin skill given its plugin's context. The plugin is the one of the root that holds
 * the skill folder (the registry knows each root's plugin): no scan of the skills.
 */
export function withPluginRuns(executor: ScriptExecutor, registry: Pick<SkillRegistry, 'rootOf'>, dataRoot: string): ScriptExecutor {
  return {
    run(req: ExecRequest) {
      if (req.plugin) return executor.run(req);
      const plugin = registry.rootOf(req.skillRoot)?.plugin;
      return executor.run(plugin ? { ...req, plugin: pluginRunContext(plugin, dataRoot) } : req);
    },
  };
}
