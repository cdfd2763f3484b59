// One bundle of what discovering plugin skills runs (plugins read, their roots, the registry), for the plugins bench.
export { pluginSkillRoots, readPlugins, PluginShelf } from '../../src/core/plugins';
export { createSkillRegistry } from '../../src/core/registry';
