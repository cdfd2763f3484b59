/**
 * `allowed-tools` (agentskills.io): tools a loaded skill pre-approves. Written as a space- or
 * comma-separated string or a YAML list; entries may carry a pattern such as `Bash(git status:*)`,
 * whose parentheses may hold spaces.
 */
export function parseAllowedTools(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const items = Array.isArray(value) ? value.map(String) : [String(value)];
  const out: string[] = [];
  for (const item of items) {
    let depth = 0;
    let current = '';
    for (const ch of item) {
      if (ch === '(') depth++;
      if (ch === ')') depth = Math.max(0, depth - 1);
      if (depth === 0 && (ch === ',' || /\s/.test(ch))) {
        if (current) out.push(current);
        current = '';
      } else current += ch;
    }
    if (current) out.push(current);
  }
  return [...new Set(out)];
}

/** The tool name an entry grants, without its argument pattern: `Bash(git:*)` grants `Bash`. */
export function allowedToolBase(entry: string): string {
  const i = entry.indexOf('(');
  return (i < 0 ? entry : entry.slice(0, i)).trim();
}

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
