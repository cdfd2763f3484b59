import * as path from 'node:path';
import type { McpServerConfig } from './mcpServerConfig';
import { McpSkillsClient } from './mcpSkillsClient';

/** Where verified copies of MCP-served skills live under a state folder (never a skill root). */
export function mcpCacheDir(stateDir: string): string {
  return path.join(stateDir, 'mcp-cache');
}

/** Connects to every server at once; each ends `up`, `no-skills` or `down` (with the reason), none throws. */
export async function connectMcpServers(configs: readonly McpServerConfig[], stateDir: string, timeoutMs?: number): Promise<McpSkillsClient[]> {
  const clients = configs.map((c) => new McpSkillsClient(c, mcpCacheDir(stateDir)));
  await Promise.all(clients.map((c) => c.connect(timeoutMs)));
  return clients;
}
