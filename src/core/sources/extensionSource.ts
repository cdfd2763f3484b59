import type { SourceKind } from './sourceKind';

/**
 * Skills contributed by installed VS Code extensions (`chatSkills` in their package.json). Their ids keep
 * the `plugin:<publisher.ext>:` prefix of the first release; they live in the extension's install folder,
 * so they are edited through overlays.
 */
export const extensionSource: SourceKind = {
  name: 'extension',
  rank: 2,
  readOnly: true,
  label: 'Extensions',
  idPrefix: 'plugin',
  idHasSource: true,
  scopeWord: 'plugin',
  inWorkspace: false,
};
