import type { SourceKind } from './sourceKind';

/**
 * Skills of an installed Agent Plugin (agent-plugins.org 1.0, or a Claude Code, Copilot or Codex plugin folder):
 * ids `plugin:<plugin name>:<skill>`, ranked below user skills (seed 002) and above skills of VS Code extensions,
 * read-only where installed (edits go to overlay revisions).
 */
export const agentPluginSource: SourceKind = {
  name: 'agent-plugin',
  rank: 1.8,
  readOnly: true,
  label: 'Plugins',
  idPrefix: 'plugin',
  idHasSource: true,
  scopeWord: 'agent-plugin',
  inWorkspace: false,
};
