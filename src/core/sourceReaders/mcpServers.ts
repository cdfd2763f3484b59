// Skills other MCP servers serve (ids `mcp:<server>:<skill>`): they join the runtime's source, are fetched on first
// use, and their scripts never run. The refusal is this kind's run hook, so every core has it whether or not a
// front end connected servers: a run of a skill in the MCP cache folder is refused (and logged) here only.
import { mcpCacheDir } from '../mcp/connectMcpServers';
import type { McpSkillsClient } from '../mcp/mcpSkillsClient';
import { refuseMcpScripts, withMcpSkills } from '../mcp/mcpSkillSource';
import { sourceOf } from '../sources/sourceKinds';
import type { SkillSourceReader, SourceReaderContext, SourceReaderSpec } from './sourceReader';

function mcpReader(context: SourceReaderContext, clients: () => readonly McpSkillsClient[]): SkillSourceReader {
  return {
    kind: sourceOf('mcp'),
    serve(base) {
      const source = withMcpSkills(base, clients);
      const prepare = source.prepare.bind(source);
      // Refusals (digest mismatch, a server gone) are also reported where the user looks.
      source.prepare = (tool, input) =>
        prepare(tool, input).catch((e: Error) => {
          context.log.warn(e.message);
          throw e;
        });
      return source;
    },
    runs: (next) => refuseMcpScripts(next, mcpCacheDir(context.stateDir), (message) => context.log.warn(message)),
  };
}

/** The skills of `clients` (connected; a getter when the front end reconnects on settings changes). */
export function mcpServers(clients: readonly McpSkillsClient[] | (() => readonly McpSkillsClient[])): SourceReaderSpec {
  const current = typeof clients === 'function' ? clients : () => clients;
  return { kind: sourceOf('mcp'), open: (context) => mcpReader(context, current) };
}

/** Without configured servers: the refusal of MCP-served scripts alone, on every core. */
export const mcpServersByDefault = (context: SourceReaderContext): SkillSourceReader => mcpReader(context, () => []);
