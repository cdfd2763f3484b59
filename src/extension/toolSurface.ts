// Which of our tools a model is offered (setting agentSkills.toolSurface): `standard` the runtime's tools
// (list, load, unload, read, run_script, docs), `minimal` only the unified catalog's runSkill and updateSkill
// (seed 003), `both` all of them. Every tool stays registered (VS Code needs static contributions); the
// manifest's `when` clauses keep the ones outside the surface out of Copilot's agent, and @skills offers
// only the surface's tools.
import { bothToolGuidanceNote, minimalToolGuidance, toolFamilies, type CatalogToolNames, type ToolSurface } from '../core/catalog/toolSurface';
import { defaultToolingGuidance } from '../core/prompt/baseRules';
import type { SkillToolNames } from '../core/prompt/types';
import type { ToolFamily } from '../core/tools/toolDescriptor';
import { TOOLS } from '../core/tools/toolTable';
import { CATALOG_TOOL_NAMES } from './ids';

/** The tool names to offer for a surface. */
export function offeredToolNames(surface: ToolSurface): string[] {
  const families = toolFamilies(surface);
  return TOOLS.filter((t) => families[t.family === 'standard' ? 'standard' : 'catalog']).map((t) => t.name);
}

/** The manifest's `when` clause for a family: the tools are enabled for agents only when the surface includes them. */
export const SURFACE_WHEN: Record<ToolFamily, string> = {
  standard: 'config.agentSkills.toolSurface != minimal',
  catalog: 'config.agentSkills.toolSurface != standard',
};

/**
 * How the composed instructions speak of tools for a surface: `minimal` names only runSkill / updateSkill (core
 * base rules for the catalog tools and seed 003's guidance); `both` adds a line on them to the default guidance.
 */
export function surfacePromptOptions(surface: ToolSurface, toolNames: SkillToolNames): { toolingGuidance?: string; catalogTools?: CatalogToolNames } {
  if (surface === 'minimal') return { toolingGuidance: minimalToolGuidance(CATALOG_TOOL_NAMES), catalogTools: { ...CATALOG_TOOL_NAMES } };
  if (surface === 'both') return { toolingGuidance: `${defaultToolingGuidance(toolNames)}\n- ${bothToolGuidanceNote(CATALOG_TOOL_NAMES)}` };
  return {};
}
