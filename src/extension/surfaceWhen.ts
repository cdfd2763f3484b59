// The manifest's side of agentSkills.toolSurface: every tool stays registered (VS Code needs static
// contributions), and these `when` clauses keep the ones outside the surface out of Copilot's agent. Which tools
// a surface offers, and how the prompt speaks of them, is the core's (src/core/toolTable/toolSurface.ts).
import type { ToolFamily } from '../core/toolTable/toolDescriptor';

export { offeredToolNames, surfacePromptOptions } from '../core/toolTable/toolSurface';

/** The manifest's `when` clause for a family: the tools are enabled for agents only when the surface includes them. */
export const SURFACE_WHEN: Record<ToolFamily, string> = {
  standard: 'config.agentSkills.toolSurface != minimal',
  catalog: 'config.agentSkills.toolSurface != standard',
};
