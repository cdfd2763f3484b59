// Which of our tools a model is offered (setting agentSkills.toolSurface): `standard` the runtime's tools,
// `minimal` the unified catalog's two tools (runSkill/updateSkill, issue 6), `both` all of them. Until the
// catalog tools are registered, `minimal` falls back to the standard set, so a chat never loses its tools.
import type { RuntimeSettings } from './settings';
import { TOOL_NAMES } from './ids';

/** Names of the unified catalog's tools, once the extension registers them. */
export const CATALOG_TOOL_NAMES: readonly string[] = [];

/** The tool names to offer for a surface. */
export function offeredToolNames(surface: RuntimeSettings['toolSurface']): string[] {
  const standard = Object.values(TOOL_NAMES) as string[];
  if (surface === 'minimal') return CATALOG_TOOL_NAMES.length ? [...CATALOG_TOOL_NAMES] : standard;
  if (surface === 'both') return [...standard, ...CATALOG_TOOL_NAMES];
  return standard;
}
