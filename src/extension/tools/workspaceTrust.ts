// What updateSkill may not do in an untrusted workspace (VS Code's Restricted Mode): workspace skills are
// read-only and not offered there. The refusal is VS Code's own, made before the core is asked.
import { CATALOG_TOOLS } from '../../core/tools/toolNames';
import { ToolError, type ToolErrorShape } from '../../core/tools/toolError';
import { allSources } from '../../core/sources';

/** True when the id's source kind (its first segment) keeps its skills in the opened folders, as `workspace:pdf`. */
function inWorkspaceId(id: string): boolean {
  const prefix = id.slice(0, id.indexOf(':'));
  return allSources().some((k) => k.inWorkspace && k.idPrefix === prefix);
}

/** Why updateSkill will not touch workspace skills now, or undefined when it may. */
export function workspaceWriteRefusal(input: Record<string, unknown>, untrusted: boolean): ToolErrorShape | undefined {
  if (!untrusted) return undefined;
  const target =
    input.action === 'create' && input.scope === 'workspace'
      ? 'create a workspace skill'
      : input.action === 'copy' && input.toScope === 'workspace'
        ? 'copy a skill into the workspace'
        : typeof input.skill === 'string' && inWorkspaceId(input.skill)
          ? `change ${input.skill}`
          : undefined;
  if (!target) return undefined;
  return new ToolError(
    'untrusted_workspace',
    `${CATALOG_TOOLS.updateSkill.name} may not ${target}: this workspace is not trusted (VS Code Restricted Mode), so its skills are read-only and not offered.`,
    'Tell the user; they can trust the folder with "Workspaces: Manage Workspace Trust" and ask again, or you can work on a user skill (scope "user") instead.',
  ).toShape();
}
