// The `contributes.languageModelTools` entries, generated from the code: names and reference names from
// ids.ts, descriptions and input schemas from the core. test/build/toolManifest.test.ts fails when
// package.json disagrees; `node scripts/sync-manifest.mjs` rewrites that part of package.json.
import { z } from 'zod';
import { SKILL_TOOL_DESCRIPTIONS } from '../../core/runtime/toolDescriptions';
import { SKILL_TOOL_NAMES, toolJsonSchemas } from '../../core/runtime/toolSchemas';
import { TOOL_NAMES, TOOL_REFERENCE_NAMES } from '../ids';
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
}

const UI: Record<keyof typeof TOOL_NAMES, { displayName: string; icon: string; userDescription: string }> = {
  list: { displayName: 'List Agent Skills', icon: '$(book)', userDescription: 'List the Agent Skills available in this workspace and your home folder.' },
  load: { displayName: 'Load Agent Skills', icon: '$(cloud-download)', userDescription: 'Load Agent Skills so their instructions are in the chat\'s context.' },
  unload: { displayName: 'Unload Agent Skills', icon: '$(close)', userDescription: 'Unload Agent Skills from the chat\'s context.' },
  read: { displayName: 'Read Skill File', icon: '$(file)', userDescription: 'Read a file of a loaded Agent Skill (references, templates, saved outputs).' },
  run_script: { displayName: 'Run Skill Script', icon: '$(play)', userDescription: 'Run a script of a loaded Agent Skill in a fresh, sandboxed run folder (asks first).' },
  list_docs: { displayName: 'List Skill Docs', icon: '$(list-unordered)', userDescription: 'List the docs of an Agent Skill.' },
  select_docs: { displayName: 'Select Skill Docs', icon: '$(checklist)', userDescription: 'Choose which docs of a loaded Agent Skill are in the chat\'s context.' },
};

/** What the host adds to the core's descriptions: how a model without `<available_skills>` finds skills. */
const HOST_NOTES: Partial<Record<keyof typeof TOOL_NAMES, string>> = {
  load: ` If you were given no <available_skills> list, call ${TOOL_NAMES.list} first to see which skills exist.`,
};

const LIST_DESCRIPTION = `Lists the Agent Skills available to you as an <available_skills> block: each skill's name, a description of when to use it, and its SKILL.md location. Call this before a task that a skill may cover, then call ${TOOL_NAMES.load} with the matching skill's name and follow its instructions. Pass 'filter' to list only skills whose name or description contains that text.`;

/** The manifest entries in the order package.json lists them. */
export function toolContributions(): ToolContribution[] {
  const schemas = toolJsonSchemas();
  const listSchema = z.toJSONSchema(listSkillsInput, { io: 'input' }) as Record<string, unknown>;
  delete listSchema.$schema;
  const entry = (key: keyof typeof TOOL_NAMES, modelDescription: string, inputSchema: Record<string, unknown>): ToolContribution => ({
    name: TOOL_NAMES[key],
    displayName: UI[key].displayName,
    toolReferenceName: TOOL_REFERENCE_NAMES[key],
    canBeReferencedInPrompt: true,
    icon: UI[key].icon,
    userDescription: UI[key].userDescription,
    modelDescription: modelDescription + (HOST_NOTES[key] ?? ''),
    inputSchema,
  });
  return [entry('list', LIST_DESCRIPTION, listSchema), ...SKILL_TOOL_NAMES.map((n) => entry(n, SKILL_TOOL_DESCRIPTIONS[n], schemas[n]))];
}
