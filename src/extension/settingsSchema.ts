// Keys and schemas of the runtime settings (`agentSkills.*`), without VS Code, so a plain test can check
// them against package.json.
import { z } from 'zod';
import { mcpServerConfigSchema } from '../core/mcp/mcpServerConfig';
import type { SkillScope } from '../core/registry/registryTypes';
import { sourceForScopeWord } from '../core/sources';

/** Keys (relative to the section) of the runtime settings, as contributed in package.json. */
export const RUNTIME_SETTING_KEYS = {
  placement: 'placement',
  loadMode: 'loadMode',
  maxLoadedSkills: 'maxLoadedSkills',
  maxReadBytes: 'maxReadBytes',
  catalogMaxTokens: 'catalog.maxTokens',
  catalogMaxChars: 'catalog.maxChars',
  loadedContentBudget: 'loadedContentBudget',
  maxToolRounds: 'chat.maxToolRounds',
  extraRoots: 'extraRoots',
  packs: 'packs',
  toolSurface: 'toolSurface',
  restrictedTools: 'restrictedTools',
  deferToBuiltinSkills: 'deferToBuiltinSkills',
  scriptTimeoutSeconds: 'scripts.timeoutSeconds',
  sandbox: 'scripts.sandbox',
  maxRunMB: 'scripts.maxRunMB',
  maxHomeMB: 'scripts.maxHomeMB',
  mcpServers: 'mcpServers',
  pluginLocations: 'pluginLocations',
  enabledPluginMcpServers: 'plugins.enabledMcpServers',
  mcpProvide: 'mcp.provide',
  triggerTrials: 'evals.trialsPerRequest',
} as const;

const extraRoot = z.union([
  z.string().min(1).transform((p) => ({ path: p, scope: 'user' as SkillScope })),
  // Users write the scope words of the first release (`project` for the workspace); the core knows kinds by name.
  z
    .strictObject({ path: z.string().min(1), scope: z.enum(['project', 'user', 'plugin', 'pack']).default('user') })
    .transform((r) => ({ path: r.path, scope: sourceForScopeWord(r.scope)!.name as SkillScope })),
]);

/** A host a pack's download may be redirected to: a name or IPv4 address, or a bracketed IPv6 one, with an optional port. */
const REDIRECT_HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/** A skill pack: an archive path (absolute, `~/` or workspace-relative) or http(s) URL, or the object form. */
const packSpec = z.union([
  z.string().trim().min(1).transform((source) => ({ source }) as { source: string; name?: string; sha256?: string; redirectHosts?: string[] }),
  z.strictObject({
    source: z.string().trim().min(1),
    name: z.string().regex(/^[a-z0-9][a-z0-9.-]*$/, 'name: lowercase letters, digits, "." and "-" (it becomes part of the ids pack:<name>:<skill>)').optional(),
    sha256: z.string().regex(/^[0-9a-fA-F]{64}$/, 'sha256: 64 hex digits').transform((h) => h.toLowerCase()).optional(),
    redirectHosts: z
      .array(z.string().regex(REDIRECT_HOST, 'redirectHosts: a host name or address, optionally with :port (e.g. "objects.githubusercontent.com"), no scheme or path'))
      .max(16, 'redirectHosts: at most 16 hosts')
      .optional(),
  }),
]);

/** One zod schema per setting; each has the default package.json declares. */
export const schemas = {
  placement: z.enum(['instructions', 'tool-results']).default('instructions'),
  loadMode: z.enum(['turn', 'once', 'session']).default('session'),
  maxLoadedSkills: z.number().int().min(1).max(50).default(5),
  maxReadBytes: z.number().int().min(1024).max(16 * 1024 * 1024).default(256 * 1024),
  catalogMaxTokens: z.number().int().min(100).max(100_000).default(4000),
  catalogMaxChars: z.number().int().min(400).max(400_000).default(16_000),
  loadedContentBudget: z.number().int().min(100).max(1_000_000).default(10_000),
  maxToolRounds: z.number().int().min(1).max(50).default(8),
  extraRoots: z.array(extraRoot).default([]),
  packs: z.array(packSpec).default([]),
  toolSurface: z.enum(['standard', 'minimal', 'both']).default('standard'),
  restrictedTools: z.boolean().default(false),
  deferToBuiltinSkills: z.boolean().default(true),
  scriptTimeoutSeconds: z.number().positive().max(3600).default(60),
  sandbox: z.enum(['auto', 'off', 'required']).default('auto'),
  maxRunMB: z.number().min(1).max(1_048_576).default(512),
  maxHomeMB: z.number().min(1).max(1_048_576).default(2048),
  mcpServers: z.array(mcpServerConfigSchema).max(32).default([]),
  pluginLocations: z.array(z.string().min(1)).max(64).default([]),
  enabledPluginMcpServers: z.array(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'each entry is <plugin>.<server>, as the Skills view names it')).max(64).default([]),
  /** What the window offers VS Code's MCP client (src/extension/mcpProvider.ts): nothing, resources and prompts, or tools too. */
  mcpProvide: z.enum(['off', 'resources', 'tools']).default('resources'),
  triggerTrials: z.number().int().min(1).max(20).default(3),
};

