import { z } from 'zod';
import { catalogToolNames, type CatalogToolId } from '../tools/toolNames';

/**
 * Which skill tools the model sees: `standard` (load, unload, read, run_script, list_docs, select_docs),
 * `minimal` (only runSkill and updateSkill, seed 003) or `both`.
 */
export const toolSurfaceSchema = z.enum(['standard', 'minimal', 'both']);
export type ToolSurface = z.infer<typeof toolSurfaceSchema>;

/** Names of the two catalog tools as the host registers them. */
export type CatalogToolNames = Record<CatalogToolId, string>;

export const DEFAULT_CATALOG_TOOL_NAMES: CatalogToolNames = catalogToolNames();

/** Whether each tool family is offered for a surface. */
export function toolFamilies(surface: ToolSurface): { standard: boolean; catalog: boolean } {
  return { standard: surface !== 'minimal', catalog: surface !== 'standard' };
}

/**
 * The tooling guidance for the prompt composer (`ComposeOptions.toolingGuidance`) with the `minimal` surface.
 * It names only the two catalog tools and lists no skills: discovery happens by calling runSkill list.
 */
export function minimalToolGuidance(names: CatalogToolNames = DEFAULT_CATALOG_TOOL_NAMES): string {
  const { runSkill, updateSkill } = names;
  return [
    `Skills are folders of instructions, scripts and references. Use exactly two tools for them: ${runSkill} and ${updateSkill}.`,
    `- Use ${runSkill} first: action "list" to find skills (filter with query or source), "inspect" to see a skill or one of its files in full (large files come in parts: follow nextOffset until it is null), "run" to activate a skill and receive its full instructions.`,
    `- Before a task that a skill may cover, call ${runSkill} with action "run" and follow the instructions it returns.`,
    `- Change skills only with ${updateSkill}. Prefer action "patch" with a small unified diff or line edits against what inspect returned, pass its versionRef as expectedVersionRef, and use dryRun to check the diff first. Do not rewrite a whole skill when a patch will do.`,
    `- If a call fails, the error says what to do next (e.g. re-inspect after a stale ref, or pick one of the listed ids when a name is ambiguous).`,
  ].join('\n');
}

/** Guidance to add for `both`: the catalog tools next to the standard ones. */
export function bothToolGuidanceNote(names: CatalogToolNames = DEFAULT_CATALOG_TOOL_NAMES): string {
  return `To inspect a skill's files in full or to change a skill, use ${names.runSkill} (list, inspect, run) and ${names.updateSkill} (patch, metadata, create, copy, archive, restore).`;
}
