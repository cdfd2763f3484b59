export type { SourceKind } from './sourceKind';
export { allSources, findSource, registerSourceKind, sourceForScopeWord, sourceOf, sourceRank } from './sourceKinds';
