// The `agentSkills.extraRoots` entries as the extension reads them: `~/` and workspace-relative paths resolved, and
// what an untrusted workspace would supply left out (with the reason). No VS Code import, so a plain test checks it.
import type { SkillScope } from '../core/registry/registryTypes';
import { sourceOf } from '../core/sources';
import { resolveSettingPath } from './settingPaths';

/** One entry of the setting, as its schema gives it. */
export interface ExtraRootSetting {
  path: string;
  scope: SkillScope;
}

/** Roots ready to scan, and the entries left out (with why, for the log). */
export interface ResolvedExtraRoots {
  roots: ExtraRootSetting[];
  ignored: string[];
}

/**
 * Resolves `~/` and relative paths (against the first workspace folder, or the home folder when there is none). In an
 * untrusted workspace an entry of a workspace scope is left out, and so is a relative path: whatever scope it claims,
 * it would offer skills the untrusted folder supplies (before, `[".evil"]` listed the workspace's `.evil` skills as
 * the user's own). VS Code also takes this setting from the user's settings only while the workspace is not trusted
 * (`restrictedConfigurations` in package.json), so a workspace's settings.json cannot add an absolute path either.
 */
export function resolveExtraRoots(entries: readonly ExtraRootSetting[], opts: { trusted: boolean; workspaceFolder?: string; home?: string }): ResolvedExtraRoots {
  const roots: ExtraRootSetting[] = [];
  const ignored: string[] = [];
  for (const r of entries) {
    const untrusted = (why: string) => ignored.push(`agentSkills.extraRoots entry "${r.path}" is ignored: ${why} while this workspace is not trusted. Trust the folder, or give an absolute or ~/ path in your user settings.`);
    if (!opts.trusted && sourceOf(r.scope).inWorkspace) {
      untrusted(`its scope is the workspace's, and workspace skills are not read`);
      continue;
    }
    const at = resolveSettingPath(r.path, { ...opts, withoutWorkspace: 'home' });
    if ('path' in at) roots.push({ path: at.path, scope: r.scope });
    else untrusted('a relative path is read from the workspace folder');
  }
  return { roots, ignored };
}
