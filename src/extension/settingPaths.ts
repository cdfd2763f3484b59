// Where a path written in a setting points: `~` and `~/` against the home folder, absolute as written, relative
// against the first workspace folder. One reading for every setting that names a file or folder, so that "trusted
// or not" is decided the same way for each: a relative path is read from the workspace folder, which an untrusted
// workspace supplies. No VS Code import, so a plain test checks it.
import * as os from 'node:os';
import * as path from 'node:path';

/** How the setting's path was read: a path to use, or why it is not used. */
export type SettingPath = { path: string } | { refused: 'untrusted' | 'no-workspace' };

export interface SettingPathOptions {
  trusted: boolean;
  workspaceFolder?: string;
  home?: string;
  /** A relative path when no folder is open: read against the home folder, or refused. */
  withoutWorkspace: 'home' | 'refuse';
}

export function resolveSettingPath(raw: string, opts: SettingPathOptions): SettingPath {
  const home = opts.home ?? os.homedir();
  if (raw === '~' || raw.startsWith('~/')) return { path: path.join(home, raw.slice(2)) };
  if (path.isAbsolute(raw)) return { path: raw };
  if (!opts.workspaceFolder) return opts.withoutWorkspace === 'home' ? { path: path.resolve(home, raw) } : { refused: 'no-workspace' };
  if (!opts.trusted) return { refused: 'untrusted' };
  return { path: path.resolve(opts.workspaceFolder, raw) };
}
