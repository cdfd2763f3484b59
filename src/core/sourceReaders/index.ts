// The readers of the kinds of skill source. Each kind is defined once, by its line in the kinds table
// (src/core/sources/sourceKinds.ts); what it reads is its reader file here. The factory opens, for every kind of that
// table, the readers a front end configured, else the kind's reader by default below: the readers that act on every
// core whether or not a front end configured the kind (a run hook, a guard). Most kinds have none.
import { agentPluginsByDefault } from './agentPlugins';
import { mcpServersByDefault } from './mcpServers';
import type { SkillSourceReader, SourceReaderContext } from './sourceReader';

export const DEFAULT_READERS: Readonly<Record<string, (context: SourceReaderContext) => SkillSourceReader>> = {
  'agent-plugin': agentPluginsByDefault,
  mcp: mcpServersByDefault,
};

export type { SkillSourceReader, SourceReaderContext, SourceReaderSpec } from './sourceReader';
export { extensionSkills } from './extensionSkills';
export { mcpServers } from './mcpServers';
export { skillPacks, type PackMountHook } from './installedPacks';
