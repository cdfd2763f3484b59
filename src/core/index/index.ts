/**
 * The skill index (issue 24): BM25F over every skill's name, description and body, kept in line with the
 * registry incrementally, and what is built on it: catalog ranking, mentions, search with a confidence.
 */
export { SkillIndex, DEFAULT_WEIGHTS, FIELDS, MAX_QUERY_CHARS, type IndexDoc, type IndexHit, type IndexField, type IndexWeights, type TermMatch } from './skillIndex';
export { CatalogIndex, hostBodyReader, bodyOf, type IndexedSkill, type IndexSource, type BodyReader, type SyncChange } from './catalogIndex';
export { findMentions, isDistinctiveName, type IndexMentions } from './mentions';
export { rankCatalog, indexOfCatalog, indexKey, type CatalogRanking } from './rankCatalog';
export { indexTerms, termPairs } from './indexTokens';
export { porterStem } from './porterStemmer';
export { searchSkills, explainLine, DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT, type SearchableSkill, type FoundSkill, type SkillSearch } from './skillSearch';
export { searchInOrder, inSearchOrder } from './searchOrder';
