// The kinds table: every kind of skill source the core reads, with its reader. A new kind is one file in this
// folder (its SourceKind and its reader) plus its line here; the factory opens what this table lists.
import { findSource, registerSourceKind } from '../sources/sourceKinds';
import { agentPluginReader } from './agentPlugins';
import { extensionSkillsReader } from './extensionSkills';
import { mcpServersReader } from './mcpServers';
import { skillPacksReader } from './installedPacks';
import type { SourceReaderKind } from './sourceReader';
import { workspaceReader, userReader } from './diskRoots';

export const SOURCE_READERS: readonly SourceReaderKind[] = [workspaceReader, userReader, agentPluginReader, extensionSkillsReader, skillPacksReader, mcpServersReader];

// A kind first named here (not one of the built-in vocabulary) becomes known to the registry, the ids and the views.
for (const r of SOURCE_READERS) if (!findSource(r.kind.name)) registerSourceKind(r.kind);

export type { SkillSourceReader, SourceReaderContext, SourceReaderKind, SourceReaderSpec } from './sourceReader';
export { extensionSkills } from './extensionSkills';
export { mcpServers } from './mcpServers';
export { skillPacks, type PackMountHook } from './installedPacks';
