// The `contributes.languageModelTools` entries, generated from the code: names and reference names from
// ids.ts, descriptions and input schemas from the core. test/build/toolManifest.test.ts fails when
// package.json disagrees; `node scripts/sync-manifest.mjs` rewrites that part of package.json.
import type { z } from 'zod';
import { CATALOG_TOOL_DESCRIPTIONS, runSkillInputSchema, updateSkillInputSchema } from '../../core/catalog/toolSchemas';
import { SKILL_TOOL_DESCRIPTIONS } from '../../core/runtime/toolDescriptions';
import { inputJsonSchema } from '../../core/runtime/inputJsonSchema';
import { SKILL_TOOL_NAMES, toolJsonSchemas } from '../../core/runtime/toolSchemas';
import { CATALOG_TOOL_NAMES, CATALOG_TOOL_REFERENCE_NAMES, TOOL_NAMES, TOOL_REFERENCE_NAMES } from '../ids';
import { SURFACE_WHEN } from '../toolSurface';
import { listSkillsInput } from './listSkillsInput';

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

const UI: Record<keyof typeof TOOL_NAMES, { displayName: string; icon: string; userDescription: string }> = {
  list: { displayName: 'List Agent Skills', icon: '$(book)', userDescription: 'List the Agent Skills available in this workspace and your home folder.' },
  load: { displayName: 'Load Agent Skills', icon: '$(cloud-download)', userDescription: 'Load Agent Skills so their instructions are in the chat\'s context.' },
  unload: { displayName: 'Unload Agent Skills', icon: '$(close)', userDescription: 'Unload Agent Skills from the chat\'s context.' },
  read: { displayName: 'Read Skill File', icon: '$(file)', userDescription: 'Read a file of a loaded Agent Skill (references, templates, saved outputs).' },
  run_script: { displayName: 'Run Skill Script', icon: '$(play)', userDescription: 'Run a script of a loaded Agent Skill in a fresh run folder, sandboxed where bubblewrap works (asks first, and says whether it will be sandboxed).' },
  list_docs: { displayName: 'List Skill Docs', icon: '$(list-unordered)', userDescription: 'List the docs of an Agent Skill.' },
  select_docs: { displayName: 'Select Skill Docs', icon: '$(checklist)', userDescription: 'Choose which docs of a loaded Agent Skill are in the chat\'s context.' },
};

/** What the host adds to the core's descriptions: how a model without `<available_skills>` finds skills. */
const HOST_NOTES: Partial<Record<keyof typeof TOOL_NAMES, string>> = {
  load: ` If you were given no <available_skills> list, call ${TOOL_NAMES.list} first to see which skills exist.`,
};

const LIST_DESCRIPTION = `Lists the Agent Skills available to you as an <available_skills> block: each skill's name, a description of when to use it, and its SKILL.md location. Call this before a task that a skill may cover, then call ${TOOL_NAMES.load} with the matching skill's name and follow its instructions. Pass 'filter' to list only skills whose name or description contains that text.`;

const CATALOG_UI: Record<keyof typeof CATALOG_TOOL_NAMES, { displayName: string; icon: string; userDescription: string }> = {
  runSkill: { displayName: 'Run Agent Skill', icon: '$(run)', userDescription: 'List, inspect (in full) and run Agent Skills from every source: workspace, user, extensions and skill packs.' },
  updateSkill: { displayName: 'Update Agent Skill', icon: '$(edit)', userDescription: 'Create and patch Agent Skills with validated, revisioned writes (asks first, showing the diff).' },
};

/** What VS Code adds to the catalog tools' contract. */
const CATALOG_HOST_NOTES: Record<keyof typeof CATALOG_TOOL_NAMES, string> = {
  runSkill:
    " In VS Code, 'run' loads the skill into this chat's session (shown in the Skills view) exactly as loading it would, so its instructions stay with the conversation." +
    ' Workspace skills are not offered while the workspace is not trusted.',
  updateSkill:
    ' In VS Code, every write that is not a dry run asks the user to confirm, showing the diff; if they decline, do not retry the same change. ' +
    'Workspace skills cannot be changed while the workspace is not trusted (Restricted Mode): tell the user why instead of retrying. ' +
    'After a write the Skills view and the SKILL.md diagnostics show the new version.',
};

/** The manifest entries in the order package.json lists them. */
export function toolContributions(): ToolContribution[] {
  const schemas = toolJsonSchemas();
  const listSchema = inputJsonSchema(listSkillsInput);
  const entry = (key: keyof typeof TOOL_NAMES, modelDescription: string, inputSchema: Record<string, unknown>): ToolContribution => ({
    name: TOOL_NAMES[key],
    displayName: UI[key].displayName,
    toolReferenceName: TOOL_REFERENCE_NAMES[key],
    canBeReferencedInPrompt: true,
    icon: UI[key].icon,
    userDescription: UI[key].userDescription,
    modelDescription: modelDescription + (HOST_NOTES[key] ?? ''),
    inputSchema,
    when: SURFACE_WHEN.standard,
  });
  const catalogEntry = (key: keyof typeof CATALOG_TOOL_NAMES, schema: z.ZodType): ToolContribution => ({
    name: CATALOG_TOOL_NAMES[key],
    displayName: CATALOG_UI[key].displayName,
    toolReferenceName: CATALOG_TOOL_REFERENCE_NAMES[key],
    canBeReferencedInPrompt: true,
    icon: CATALOG_UI[key].icon,
    userDescription: CATALOG_UI[key].userDescription,
    modelDescription: CATALOG_TOOL_DESCRIPTIONS[key] + CATALOG_HOST_NOTES[key],
    inputSchema: inputJsonSchema(schema),
    when: SURFACE_WHEN.catalog,
  });
  return [
    entry('list', LIST_DESCRIPTION, listSchema),
    ...SKILL_TOOL_NAMES.map((n) => entry(n, SKILL_TOOL_DESCRIPTIONS[n], schemas[n])),
    catalogEntry('runSkill', runSkillInputSchema),
    catalogEntry('updateSkill', updateSkillInputSchema),
  ];
}
