// The workspace's and the user's skill folders: read by the registry from the core's roots, through the one host,
// with the registry's change feed. They add nothing to a run and filter no file.
import { userSource } from '../sources/userSource';
import { workspaceSource } from '../sources/workspaceSource';
import type { SourceReaderKind } from './sourceReader';

export const workspaceReader: SourceReaderKind = { kind: workspaceSource };
export const userReader: SourceReaderKind = { kind: userSource };
