// The plugins a long-lived front end (the extension, the MCP server) reads again on every scan: a plugin folder
// whose manifest and skill folders did not change is not read again, and each problem is reported once, not on
// every scan (a folder that is not a plugin stays one line in the output channel).
import * as path from 'node:path';
import type { InstalledPlugin } from './installedPlugins';
import type { PluginProblem } from './pluginManifest';
import { samePluginContent } from './samePlugin';
import { readPlugins, type LocatedPlugin } from './pluginRoots';
import { MANIFEST_PATHS, readPlugin, type PluginRead } from './readPlugin';
import { fileProblemKey, ReportOnce } from '../reportOnce';
import { localDisk } from '../host/localDisk';
import { stampOrNull, type SyncSkillsHost } from '../host/skillsHost';

/**
 * What changes when a plugin's manifest or its skill folders change: their modification times and sizes.
 * `undefined` when one of them cannot be stamped (a stat that fails): that plugin is read again each time, and
 * the reader says why.
 */
function stampOf(files: SyncSkillsHost, root: string, previous: PluginRead | undefined): string | undefined {
  const parts = [root, ...MANIFEST_PATHS.map((rel) => path.join(root, rel)), ...(previous?.skillRoots.map((r) => r.path) ?? [path.join(root, 'skills')])];
  const stamps: string[] = [];
  for (const p of parts) {
    const st = stampOrNull(files, p, FOLDERS_TOO);
    if (st === null) return undefined;
    stamps.push(st ? `${st.mtimeMs}:${st.size}` : '-');
  }
  return stamps.join('|');
}

const FOLDERS_TOO = { folders: true } as const;

export class PluginShelf {
  private readonly cache = new Map<string, { stamp: string | undefined; read: PluginRead }>();
  private readonly reported = new ReportOnce();

  /** `files`: where plugins are read and stamped (the disk by default). */
  constructor(private readonly files: SyncSkillsHost = localDisk) {}

  /** The plugins at `dirs` (see readPlugins), and the problems not reported before. */
  read(dirs: readonly (string | InstalledPlugin)[]): { plugins: LocatedPlugin[]; fresh: PluginProblem[] } {
    const seen = new Set<string>();
    const plugins = readPlugins(
      dirs,
      (dir) => {
        const root = path.resolve(dir);
        seen.add(root);
        const cached = this.cache.get(root);
        const stamp = stampOf(this.files, root, cached?.read);
        if (cached && stamp !== undefined && cached.stamp === stamp) return cached.read;
        const read = readPlugin(root, { fast: true, files: this.files });
        // The stamp of what was read (its skill folders are known now).
        this.cache.set(root, { stamp: stampOf(this.files, root, read), read });
        return read;
      },
      // Compared on every read, not cached: a stamp does not move when a file inside a skill changes.
      (a, b) => samePluginContent(a, b, this.files),
    );
    for (const key of this.cache.keys()) if (!seen.has(key)) this.cache.delete(key);
    return { plugins, fresh: this.reported.fresh(plugins.flatMap((x) => x.problems), fileProblemKey) };
  }
}
