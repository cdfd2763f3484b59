import type { SourceKind } from './sourceKind';

/** Skills in the user's home folder (`~/.copilot/skills` ...) and extra roots configured at user scope. */
export const userSource: SourceKind = {
  name: 'user',
  rank: 1,
  readOnly: false,
  label: 'User',
  idPrefix: 'user',
  idHasSource: false,
  scopeWord: 'user',
  inWorkspace: false,
};
