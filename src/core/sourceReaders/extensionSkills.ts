// Skills other VS Code extensions contribute (plugin scope): a root of skills contributed one by one (`chatSkills`)
// shows only those child folders, through a filter in front of the one host.
import { pluginRegistryHost } from '../registry/pluginContributions';
import { sourceOf } from '../sources/sourceKinds';
import type { SourceReaderSpec } from './sourceReader';

/** The filter of the packages' contributions: per root, the child folders that are skills (a root absent: all). */
export function extensionSkills(only: () => ReadonlyMap<string, ReadonlySet<string>>): SourceReaderSpec {
  const kind = sourceOf('extension');
  return { kind, open: () => ({ kind, files: (host) => pluginRegistryHost(host, only) }) };
}
