// Which of our tools a model is offered (setting agentSkills.toolSurface, `agent-skills mcp --tool-surface`):
// `standard` the runtime's tools (list, load, unload, read, run_script, docs), `minimal` only the unified
// catalog's runSkill and updateSkill (seed 003), `both` all of them; and how the composed instructions speak of
// them. Shared by every surface (VS Code, CLI, MCP), so it lives in the core.
import { bothToolGuidanceNote, minimalToolGuidance, toolFamilies, type CatalogToolNames, type ToolSurface } from '../catalog/catalogSurface';
import { defaultToolingGuidance } from '../prompt/baseRules';
import type { SkillToolNames } from '../prompt/promptTypes';
import { catalogToolNames } from '../tools/toolNames';
import { TOOLS } from './toolTable';

/** The tool names to offer for a surface. */
export function offeredToolNames(surface: ToolSurface): string[] {
  const families = toolFamilies(surface);
  return TOOLS.filter((t) => families[t.family === 'standard' ? 'standard' : 'catalog']).map((t) => t.name);
}

/**
 * How the composed instructions speak of tools for a surface: `minimal` names only runSkill / updateSkill (core
 * base rules for the catalog tools and seed 003's guidance); `both` adds a line on them to the default guidance.
 */
export function surfacePromptOptions(surface: ToolSurface, toolNames: SkillToolNames): { toolingGuidance?: string; catalogTools?: CatalogToolNames } {
  const catalog = catalogToolNames();
  if (surface === 'minimal') return { toolingGuidance: minimalToolGuidance(catalog), catalogTools: { ...catalog } };
  if (surface === 'both') return { toolingGuidance: `${defaultToolingGuidance(toolNames)}\n- ${bothToolGuidanceNote(catalog)}` };
  return {};
}
