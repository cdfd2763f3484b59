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

/** True for an entry whose tool name (before any `(...)` pattern) looks like a tool name: a letter or `_` first. */
export function isToolNameEntry(entry: string): boolean {
  return /^[A-Za-z_][\w.:-]*$/.test(allowedToolBase(entry));
}
