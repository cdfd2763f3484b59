export type { SourceKind } from './sourceKind';
export { allSources, findSource, registerSourceKind, SOURCE_KINDS, sourceForScopeWord, sourceOf, sourceRank } from './sourceKinds';
