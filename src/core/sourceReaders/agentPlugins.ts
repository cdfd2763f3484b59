// Agent Plugins' skills (scanned from the roots `pluginSkillRoots` gives): a run of one gets its plugin's root and
// data folder (Agent Plugins 1.0 §9.1). The plugin is the one of the root that holds the skill folder (the
// registry knows each root's plugin): no scan of the skills per run.
import { pluginRunContext } from '../plugins/pluginRuns';
import { guardedExecutor } from '../runtime/guardedExecutor';
import { sourceOf } from '../sources/sourceKinds';
import type { SkillSourceReader, SourceReaderContext } from './sourceReader';

/** On every core (plugins are scanned from the roots, no front end configures them): the run hook. */
export function agentPluginsByDefault(context: SourceReaderContext): SkillSourceReader {
  return {
    kind: sourceOf('agent-plugin'),
    runs: (next) =>
      guardedExecutor(next, (req) => {
        if (req.plugin) return req;
        const plugin = context.registry.rootOf(req.skillRoot)?.plugin;
        return plugin ? { ...req, plugin: pluginRunContext(plugin, context.pluginDataDir) } : req;
      }),
  };
}
