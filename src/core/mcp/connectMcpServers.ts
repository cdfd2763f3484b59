import * as path from 'node:path';
import type { WritableHost } from '../host/fileWrites';
import type { McpServerConfig } from './mcpServerConfig';
import { McpSkillsClient } from './mcpSkillsClient';

/** Where verified copies of MCP-served skills live under a state folder (never a skill root). */
export function mcpCacheDir(stateDir: string): string {
  return path.join(stateDir, 'mcp-cache');
}

/**
 * Connects to every server at once; each ends `up`, `no-skills` or `down` (with the reason), none throws. Verified
 * copies of their skills are written through `files` (the core's host; the local disk by default).
 */
export async function connectMcpServers(configs: readonly McpServerConfig[], stateDir: string, timeoutMs?: number, files?: WritableHost): Promise<McpSkillsClient[]> {
  const clients = configs.map((c) => new McpSkillsClient(c, mcpCacheDir(stateDir), files));
  await Promise.all(clients.map((c) => c.connect(timeoutMs)));
  return clients;
}
