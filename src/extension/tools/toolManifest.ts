// The `contributes.languageModelTools` entries, generated from the core's tool table (names, reference
// names, titles, descriptions, zod-generated input schemas) plus what VS Code alone shows (icons, the
// description for people, notes on VS Code's behaviour). test/build/toolManifest.test.ts fails when
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

/** What VS Code shows of a tool beyond the core's descriptor, by descriptor id. */
interface ManifestUi {
  icon: string;
  userDescription: string;
  /** Appended to the model description: how the tool behaves in VS Code. */
  modelNote?: string;
}

const UI: Record<string, ManifestUi> = {
  list_skills: { icon: '$(book)', userDescription: 'List the Agent Skills available in this workspace and your home folder.' },
  load: { icon: '$(cloud-download)', userDescription: "Load Agent Skills so their instructions are in the chat's context." },
  unload: { icon: '$(close)', userDescription: "Unload Agent Skills from the chat's context." },
  read: { icon: '$(file)', userDescription: 'Read a file of a loaded Agent Skill (references, templates, saved outputs).' },
  run_script: { icon: '$(play)', userDescription: 'Run a script of a loaded Agent Skill in a fresh run folder, sandboxed where bubblewrap works (asks first, and says whether it will be sandboxed).' },
  list_docs: { icon: '$(list-unordered)', userDescription: 'List the docs of an Agent Skill.' },
  select_docs: { icon: '$(checklist)', userDescription: "Choose which docs of a loaded Agent Skill are in the chat's context." },
  runSkill: {
    icon: '$(run)',
    userDescription: 'List, inspect (in full) and run Agent Skills from every source: workspace, user, extensions and skill packs.',
    modelNote:
      " In VS Code, 'run' loads the skill into this chat's session (shown in the Skills view) exactly as loading it would, so its instructions stay with the conversation." +
      ' Workspace skills are not offered while the workspace is not trusted.',
  },
  updateSkill: {
    icon: '$(edit)',
    userDescription: 'Create and patch Agent Skills with validated, revisioned writes (asks first, showing the diff).',
    modelNote:
      ' In VS Code, every write that is not a dry run asks the user to confirm, showing the diff; if they decline, do not retry the same change. ' +
      'Workspace skills cannot be changed while the workspace is not trusted (Restricted Mode): tell the user why instead of retrying. ' +
      'After a write the Skills view and the SKILL.md diagnostics show the new version.',
  },
};

function contribution(t: ToolDescriptor): ToolContribution {
  const ui = UI[t.id];
  if (!ui) throw new Error(`No manifest UI for tool ${t.name}: add its icon and user description to src/extension/tools/toolManifest.ts.`);
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
