import type { SourceKind } from './sourceKind';

/** Skills in the opened folders (`.github/skills`, `.agents/skills`, `.claude/skills`): they win over all others. */
export const workspaceSource: SourceKind = {
  name: 'workspace',
  rank: 0,
  readOnly: false,
  label: 'Workspace',
  idPrefix: 'workspace',
  idHasSource: false,
  scopeWord: 'project',
  inWorkspace: true,
};
