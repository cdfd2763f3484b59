import type { CatalogBudget } from './promptTypes';

/** The default budget of `<available_skills>` (setting `catalog.maxTokens`; the runtime's and `agent-skills prompt --request`'s). */
export const DEFAULT_CATALOG_BUDGET: Readonly<Required<CatalogBudget>> = Object.freeze({ maxTokens: 4000, maxChars: 16000 });
