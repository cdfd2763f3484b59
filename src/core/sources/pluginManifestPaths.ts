/** How a plugin folder is laid out, by which manifest it has. */
export type PluginLayout = 'agent-plugins' | 'claude' | 'copilot' | 'codex';

/**
 * Where each layout keeps its manifest, relative to the plugin folder, in the order they are looked for. Root
 * `plugin.json` is the Agent Plugins standard's. The plugin reader and the linter (a skill inside a plugin is
 * installed with its sibling skills) both read this one list.
 */
export const PLUGIN_MANIFESTS: readonly { rel: string; layout: PluginLayout }[] = [
  { rel: 'plugin.json', layout: 'agent-plugins' },
  { rel: '.claude-plugin/plugin.json', layout: 'claude' },
  { rel: '.github/plugin/plugin.json', layout: 'copilot' },
  { rel: '.plugin/plugin.json', layout: 'copilot' },
  { rel: '.codex-plugin/plugin.json', layout: 'codex' },
];
