export { PLUGIN_NAME, PLUGIN_SCHEMA_1_0, readAgentManifest, readStandardManifest, type PluginLayout, type PluginManifest, type PluginProblem } from './pluginManifest';
export { looksLikePlugin, MAX_PLUGIN_SKILLS, readPlugin, type PluginRead, type PluginSkillRoot } from './readPlugin';
export { pluginSkillRoots, readPlugins, type LocatedPlugin } from './pluginRoots';
export { installedPlugins, pluginsAt, type InstalledPlugin, type InstalledPluginsInput } from './installedPlugins';
export { PluginShelf } from './pluginShelf';
export { ambiguousServerMessage, cachedPluginMcpReader, MCP_SCHEMA_1_0, pluginMcpNotices, pluginMcpServers, readPluginMcp, type DeclaredPluginMcp, type PluginMcpServer } from './pluginMcpConfig';
export { pluginDataDir, pluginRunContext } from './pluginRuns';
