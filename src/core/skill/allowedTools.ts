/**
 * `allowed-tools` (agentskills.io): tools a loaded skill pre-approves. Written as a space- or
 * comma-separated string or a YAML list; entries may carry a pattern such as `Bash(git status:*)`,
 * whose parentheses may hold spaces.
 */
export function parseAllowedTools(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const out: string[] = [];
  // A YAML list item is one entry (VS Code's `Azure MCP/search` holds a space); a string splits at top-level
  // commas when it has any, else at spaces.
  const items = Array.isArray(value) ? value.map((v) => String(v).trim()) : [String(value)];
  for (const item of items) {
    const commas = topLevelComma(item);
    let depth = 0;
    let current = '';
    for (const ch of item) {
      if (ch === '(') depth++;
      if (ch === ')') depth = Math.max(0, depth - 1);
      if (depth === 0 && (ch === ',' || (!commas && !Array.isArray(value) && /\s/.test(ch)))) {
        if (current.trim()) out.push(current.trim());
        current = '';
      } else current += ch;
    }
    if (current.trim()) out.push(current.trim());
  }
  return [...new Set(out)];
}

function topLevelComma(item: string): boolean {
  let depth = 0;
  for (const ch of item) {
    if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    else if (ch === ',' && depth === 0) return true;
  }
  return false;
}

/** The tool name an entry grants, without its argument pattern: `Bash(git:*)` grants `Bash`. */
export function allowedToolBase(entry: string): string {
  const i = entry.indexOf('(');
  return (i < 0 ? entry : entry.slice(0, i)).trim();
}

/**
 * True for an entry whose tool name (before any `(...)` pattern) looks like a tool name: a letter or `_` first,
 * or a VS Code tool reference `server/tool` (whose server name may hold spaces).
 */
export function isToolNameEntry(entry: string): boolean {
  const base = allowedToolBase(entry);
  return /^[A-Za-z_][\w.:-]*$/.test(base) || /^[A-Za-z_][\w .:-]*\/(?:[\w.:-]+|\*)$/.test(base);
}
