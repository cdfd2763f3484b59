import type { SourceKind } from './sourceKind';

/**
 * Skills an MCP server serves (the skills extension's `skill://` resources), fetched into a cache: read-only,
 * never executed, and ranked after every local kind so they never shadow a skill on disk. Ids carry the
 * server: `mcp:<server>:<skill>`.
 */
export const mcpSource: SourceKind = {
  name: 'mcp',
  rank: 4,
  readOnly: true,
  label: 'MCP servers',
  idPrefix: 'mcp',
  idHasSource: true,
  scopeWord: 'mcp',
  inWorkspace: false,
};
