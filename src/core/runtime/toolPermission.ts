import { allowedToolBase, parseAllowedTools } from '../skill/allowedTools';

export { allowedToolBase, parseAllowedTools };

/** Outcome of a permission check. `ask` means the host's normal confirmation applies. */
export interface ToolPermission {
  decision: 'allow' | 'deny' | 'ask';
  /** Why, naming the skill(s) that decided. */
  reason: string;
  /** Skills whose `allowed-tools` list the tool. */
  grantedBy: string[];
}

/**
 * Seed 002's permission model over the loaded skills' `allowed-tools`. A listed tool is pre-approved
 * (`allow`). An unlisted tool is `ask` normally, and `deny` in restricted mode when at least one loaded
 * skill declares `allowed-tools`. The runtime's own skill tools (`alwaysAllowed`) are never denied (`ask`),
 * so the model can still unload a restricting skill. Names compare case-insensitively.
 */
export function checkToolPermissionFor(
  toolName: string,
  loaded: readonly { name: string; allowedTools?: string[] }[],
  restricted: boolean,
  alwaysAllowed: readonly string[] = [],
): ToolPermission {
  const wanted = toolName.toLowerCase();
  const grantedBy = loaded.filter((s) => s.allowedTools?.some((e) => allowedToolBase(e).toLowerCase() === wanted)).map((s) => s.name);
  if (grantedBy.length) return { decision: 'allow', reason: `pre-approved by allowed-tools of ${grantedBy.join(', ')}`, grantedBy };
  if (alwaysAllowed.some((t) => t.toLowerCase() === wanted)) return { decision: 'ask', reason: 'a skills runtime tool: never denied', grantedBy: [] };
  const restricting = loaded.filter((s) => s.allowedTools !== undefined).map((s) => s.name);
  if (restricted && restricting.length) {
    return { decision: 'deny', reason: `restricted mode: '${toolName}' is not in allowed-tools of ${restricting.join(', ')}`, grantedBy: [] };
  }
  return { decision: 'ask', reason: 'no loaded skill pre-approves it', grantedBy: [] };
}
