export * from './promptTypes';
export { composeCall } from './composer';
export { renderCatalog, renderCatalogEntry, shortDescription, omittedLine, type CatalogBlock } from './catalog';
export { renderActiveSkills, renderSkillBlock, renderDoc } from './activeSkills';
export { baseRules, catalogBaseRules, defaultToolingGuidance } from './baseRules';
export { bm25Scores, findMentions, rankSkills, tokenize, type Mentions } from './skillRanking';
export { o200kCounter, memoizeCounter } from './tokenCounter';
export { serializeCall, promptTokens, sharedPrefixFraction } from './promptMetrics';
