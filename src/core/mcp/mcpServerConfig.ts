import { z } from 'zod';

/** A server name: the `<server>` of `mcp:<server>:<skill>` ids, so no `:` and nothing a path could misuse. */
const serverName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'use letters, digits, ".", "_" or "-" (at most 64, no ":")');

/** One MCP server whose skills join the registry (setting `agentSkills.mcpServers`, CLI `--mcp-server`). */
export const mcpServerConfigSchema = z.union([
  z.strictObject({ name: serverName, command: z.string().min(1), args: z.array(z.string()).default([]), env: z.record(z.string(), z.string()).optional(), cwd: z.string().optional() }),
  z.strictObject({ name: serverName, url: z.url({ protocol: /^https?$/ }), headers: z.record(z.string(), z.string()).optional() }),
]);
export type McpServerConfig = z.infer<typeof mcpServerConfigSchema>;

/**
 * `--mcp-server <name>=<url>` or `--mcp-server <name>=<command> [args...]` (split on spaces; use the setting for
 * arguments with spaces). Throws an Error naming the flag and the fix.
 */
export function parseMcpServerFlag(v: string): McpServerConfig {
  const eq = v.indexOf('=');
  if (eq <= 0) throw new Error(`--mcp-server takes <name>=<url or command>, e.g. team=https://skills.example.com/mcp or local="agent-skills mcp", not '${v}'.`);
  const name = v.slice(0, eq);
  const target = v.slice(eq + 1).trim();
  const parts = target.split(/\s+/).filter(Boolean);
  const candidate = /^https?:\/\//.test(target) ? { name, url: target } : { name, command: parts[0] ?? '', args: parts.slice(1) };
  const r = mcpServerConfigSchema.safeParse(candidate);
  if (!r.success) throw new Error(`--mcp-server ${v}: ${r.error.issues.map((i) => `${i.path.join('.') || 'value'}: ${i.message}`).join('; ')}.`);
  return r.data;
}
