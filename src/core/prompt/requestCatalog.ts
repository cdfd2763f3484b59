import { renderCatalog, type CatalogBlock } from './catalog';
import { DEFAULT_CATALOG_BUDGET } from './catalogBudget';
import { o200kCounter } from './tokenCounter';
import type { CatalogBudget, CatalogSkill, TokenCounter } from './promptTypes';
import type { SkillIndex } from '../index/skillIndex';
import { FIND_TOOL, RUNTIME_TOOLS } from '../tools/toolNames';

/**
 * The `<available_skills>` block a model gets for `request` with the runtime's tools (`load_skills`, and
 * `find_skills` named in the closing line when skills are left out), counted in o200k tokens: what
 * `agent-skills prompt --request` prints and what the offline trigger judge checks the skill's place in.
 * `budget` defaults to the runtime's (`DEFAULT_CATALOG_BUDGET`); `counter` to o200k (pass a memoized one when
 * rendering many blocks of one catalog, as the runtime does per session). Locations are hidden as the runtime
 * hides them (its load tool takes a name); `locations` shows them (the specification's plain block).
 */
export function requestCatalogBlock(skills: readonly CatalogSkill[], request: string | undefined, index: SkillIndex, budget: CatalogBudget = DEFAULT_CATALOG_BUDGET, counter: TokenCounter = o200kCounter, locations = false): CatalogBlock {
  return renderCatalog(skills, request, budget, counter, { loadTool: RUNTIME_TOOLS.load.name, findTool: FIND_TOOL.name, index, hideLocations: !locations });
}
