// The `agentSkills.packs` entries as the extension mounts them: `~/` and workspace-relative paths resolved, and
// workspace-relative ones left out (with the reason) while the workspace is not trusted. No VS Code import, so a
// plain test checks it.
import * as os from 'node:os';
import * as path from 'node:path';
import { packNameOf } from '../core/catalog/packMounts';
import type { PackSpec } from '../core/catalog/catalogTypes';

/** True for an http(s) URL (downloaded, with a progress notification) rather than a path. */
export function isPackUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/** Pack specs ready to mount, and the ones left out (with why, for the log). */
export interface ResolvedPacks {
  specs: PackSpec[];
  ignored: string[];
}

/**
 * Resolves `~/` and workspace-relative paths. In an untrusted workspace a workspace-relative path is ignored: it
 * would read an archive the untrusted folder supplies.
 */
export function resolvePackSpecs(specs: readonly PackSpec[], opts: { trusted: boolean; workspaceFolder?: string; home?: string }): ResolvedPacks {
  const home = opts.home ?? os.homedir();
  const out: PackSpec[] = [];
  const ignored: string[] = [];
  for (const spec of specs) {
    const s = spec.source;
    // The default name comes from what the user wrote, so resolving the path does not change the ids.
    const name = spec.name ?? packNameOf(s);
    if (isPackUrl(s) || /^file:/i.test(s)) out.push({ ...spec, name });
    else if (s.startsWith('~/')) out.push({ ...spec, name, source: path.join(home, s.slice(2)) });
    else if (path.isAbsolute(s)) out.push({ ...spec, name });
    else if (!opts.trusted) ignored.push(`Skill pack "${name}" (${s}) is ignored: workspace-relative pack paths are not read while this workspace is not trusted. Trust the folder, or give an absolute path in your user settings.`);
    else if (!opts.workspaceFolder) ignored.push(`Skill pack "${name}" (${s}) is ignored: a relative path needs an open workspace folder. Give an absolute or ~/ path in agentSkills.packs.`);
    else out.push({ ...spec, name, source: path.resolve(opts.workspaceFolder, s) });
  }
  return { specs: out, ignored };
}
