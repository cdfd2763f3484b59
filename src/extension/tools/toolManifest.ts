// The `contributes.languageModelTools` entries, generated from the core's tool table (names, reference
// names, titles, descriptions, zod-generated input schemas) plus what an editor shows (each descriptor's
// `manifest`: icon, description for people, notes on VS Code's behaviour). test/build/toolManifest.test.ts fails when
// package.json disagrees; `node --import tsx scripts/sync-manifest.mjs` rewrites that part of package.json.
import { inputJsonSchema } from '../../core/runtime/inputJsonSchema';
import type { ToolDescriptor } from '../../core/toolTable/toolDescriptor';
import { TOOLS } from '../../core/toolTable/toolTable';
import { SURFACE_WHEN } from '../surfaceWhen';

/** One `contributes.languageModelTools` entry. */
export interface ToolContribution {
  name: string;
  displayName: string;
  toolReferenceName: string;
  canBeReferencedInPrompt: boolean;
  icon: string;
  userDescription: string;
  modelDescription: string;
  inputSchema: Record<string, unknown>;
  /** Enabled for agents (Copilot's included) only when setting agentSkills.toolSurface includes the tool. */
  when: string;
}

function contribution(t: ToolDescriptor): ToolContribution {
  const ui = t.manifest;
  return {
    name: t.name,
    displayName: t.title,
    toolReferenceName: t.referenceName,
    canBeReferencedInPrompt: true,
    icon: ui.icon,
    userDescription: ui.userDescription,
    modelDescription: t.description + (ui.modelNote ?? ''),
    inputSchema: inputJsonSchema(t.input),
    when: SURFACE_WHEN[t.family],
  };
}

/** The manifest entries in the order package.json lists them (the table's order). */
export function toolContributions(): ToolContribution[] {
  return TOOLS.map(contribution);
}
