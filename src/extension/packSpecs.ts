// The `agentSkills.packs` entries as the extension mounts them: `~/` and workspace-relative paths resolved, and
// workspace-relative ones left out (with the reason) while the workspace is not trusted. No VS Code import, so a
// plain test checks it.
import { packNameOf } from '../core/catalog/packMounts';
import type { PackSpec } from '../core/catalog/catalogTypes';
import { resolveSettingPath } from './settingPaths';

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
  const out: PackSpec[] = [];
  const ignored: string[] = [];
  for (const spec of specs) {
    const s = spec.source;
    // The default name comes from what the user wrote, so resolving the path does not change the ids.
    const name = spec.name ?? packNameOf(s);
    if (isPackUrl(s) || /^file:/i.test(s)) {
      out.push({ ...spec, name });
      continue;
    }
    const at = resolveSettingPath(s, { ...opts, withoutWorkspace: 'refuse' });
    if ('path' in at) out.push({ ...spec, name, source: at.path });
    else if (at.refused === 'untrusted') ignored.push(`Skill pack "${name}" (${s}) is ignored: workspace-relative pack paths are not read while this workspace is not trusted. Trust the folder, or give an absolute path in your user settings.`);
    else ignored.push(`Skill pack "${name}" (${s}) is ignored: a relative path needs an open workspace folder. Give an absolute or ~/ path in agentSkills.packs.`);
  }
  return { specs: out, ignored };
}
