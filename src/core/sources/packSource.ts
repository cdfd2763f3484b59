import type { SourceKind } from './sourceKind';

/** Skills from an installed skill pack (a downloaded archive): read-only, edited through overlays, ranked last. */
export const packSource: SourceKind = {
  name: 'pack',
  rank: 3,
  readOnly: true,
  label: 'Packs',
  idPrefix: 'pack',
  idHasSource: true,
  scopeWord: 'pack',
  inWorkspace: false,
};
