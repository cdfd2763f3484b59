import * as fs from 'node:fs';
import type { SkillRoot } from '../registry/types';
import { readPlugin, type PluginRead } from './readPlugin';

/** Plugins read from folders, each once (the same folder reached by two paths or two hosts is one plugin). */
export function readPlugins(dirs: readonly string[]): PluginRead[] {
  const seen = new Set<string>();
  const out: PluginRead[] = [];
  for (const dir of dirs) {
    let key: string;
    try {
      key = fs.realpathSync.native(dir);
    } catch {
      key = dir;
    }
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(readPlugin(dir));
  }
  return out;
}

/** The registry roots of loaded plugins: each vetted skill folder under its plugin's name (`plugin:<name>:<skill>`). */
export function pluginSkillRoots(plugins: readonly PluginRead[]): SkillRoot[] {
  return plugins.flatMap((p) => (p.manifest ? p.skillRoots.filter((r) => r.skills.length > 0).map((r) => ({ path: r.path, scope: 'agent-plugin', source: p.manifest!.name, only: r.skills })) : []));
}
