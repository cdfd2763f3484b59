import * as path from 'node:path';
import type { WritableHost } from '../host/fileWrites';
import type { McpLaunch } from './mcpLaunch';
import { McpSkillsClient, type McpTimeouts } from './mcpSkillsClient';

/** Where verified copies of MCP-served skills live under a state folder (never a skill root). */
export function mcpCacheDir(stateDir: string): string {
  return path.join(stateDir, 'mcp-cache');
}

/** How servers are connected: where copies are written, how long each may take, and who hears of each result. */
export interface StartMcpOptions {
  /** Verified copies are written through this host (the core's; the local disk by default). */
  files?: WritableHost;
  timeouts?: Partial<McpTimeouts>;
  /** Called once per server when its connection settled (`up`, `no-skills` or `down`). */
  settled?: (client: McpSkillsClient) => void;
}

/**
 * Starts connecting to every server at once and returns at once: each client is `connecting` until it settles,
 * and its skills join when it does (callers that must not wait, like our own server's initialize, use this).
 * `ready` resolves when all settled; none rejects.
 */
export function startMcpServers(configs: readonly McpLaunch[], stateDir: string, o: StartMcpOptions = {}): { clients: McpSkillsClient[]; ready: Promise<void> } {
  const clients = configs.map((c) => new McpSkillsClient(c, mcpCacheDir(stateDir), o.files, o.timeouts));
  const ready = Promise.all(clients.map((c) => c.connect().then(() => o.settled?.(c)))).then(() => undefined);
  return { clients, ready };
}

/** Connects to every server at once and waits until each is `up`, `no-skills` or `down` (with the reason); none throws. */
export async function connectMcpServers(configs: readonly McpLaunch[], stateDir: string, o: StartMcpOptions = {}): Promise<McpSkillsClient[]> {
  const { clients, ready } = startMcpServers(configs, stateDir, o);
  await ready;
  return clients;
}
