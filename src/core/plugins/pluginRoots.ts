import * as path from 'node:path';
import type { SkillRoot } from '../registry/registryTypes';
import type { InstalledPlugin } from './installedPlugins';
import { readPlugin, type PluginRead } from './readPlugin';
import { absolutePath } from '../paths/absolutePath';
import { samePluginContent } from './samePlugin';

/** A plugin read, with the hosts that installed it (several when two agents installed the same plugin). */
export interface LocatedPlugin extends PluginRead {
  hosts: string[];
  /**
   * Other folders whose manifest gives the same name and version, read but not loaded. Usually the same plugin
   * installed by two hosts, but a name is only what a manifest says: an MCP server such a plugin declares is
   * ambiguous and never started (pluginMcpConfig.ts).
   */
  duplicates: PluginRead[];
  /**
   * Folders that give this plugin's name and version with other content (samePlugin.ts): which one is the real
   * plugin is not known, so none of their skills is loaded (as two skills of one name in one scope: ambiguous,
   * neither wins) and the plugin carries an error naming every folder.
   */
  clash?: string[];
}

/**
 * Plugins read from folders, each once: the same folder reached by two paths, or the same plugin (name and
 * version, same content) installed by two hosts in two folders, is one plugin (the first folder wins; the hosts are
 * merged). Two folders of one name and version with different content clash: neither's skills load (see `clash`).
 * `same` tells whether two folders hold the same plugin (the disk's bytes by default).
 */
export function readPlugins(
  dirs: readonly (string | InstalledPlugin)[],
  read: (dir: string) => PluginRead = (dir) => readPlugin(dir, { fast: true }),
  sameContent: (a: string, b: string) => boolean = samePluginContent,
): LocatedPlugin[] {
  const seenDirs = new Map<string, LocatedPlugin>();
  const byIdentity = new Map<string, LocatedPlugin>();
  const out: LocatedPlugin[] = [];
  for (const d of dirs) {
    const { dir, host } = typeof d === 'string' ? { dir: d, host: 'config' } : d;
    const plugin = read(dir);
    // The same folder reached by two paths is one plugin: a loaded one by its name and version (below), a rejected
    // one by its manifest's device and inode (no realpath either way).
    const key = plugin.identity ?? absolutePath(dir);
    const seen = seenDirs.get(key);
    if (seen) {
      if (!seen.hosts.includes(host)) seen.hosts.push(host);
      continue;
    }
    const identity = plugin.manifest ? `${plugin.manifest.name}@${plugin.manifest.version ?? ''}` : undefined;
    const same = identity ? byIdentity.get(identity) : undefined;
    if (same) {
      if (!same.hosts.includes(host)) same.hosts.push(host);
      if (plugin.root !== same.root) {
        same.duplicates.push(plugin);
        if (!same.clash && !sameContent(same.root, plugin.root)) same.clash = [same.root];
        if (same.clash) same.clash.push(plugin.root);
      }
      seenDirs.set(key, same);
      continue;
    }
    // Object.assign, not a spread: the same copy, about ten times cheaper for these objects (V8 builds a spread of an
    // object whose fields were added one by one property by property).
    const located = Object.assign({}, plugin) as LocatedPlugin;
    located.hosts = [host];
    located.duplicates = [];
    seenDirs.set(key, located);
    if (identity) byIdentity.set(identity, located);
    out.push(located);
  }
  for (const p of out) if (p.clash) refuseClash(p);
  return out;
}

/** A name and version several folders give with different content: no skill of any of them, and one error naming them all. */
function refuseClash(p: LocatedPlugin): void {
  const id = `${p.manifest!.name}${p.manifest!.version ? `@${p.manifest!.version}` : ''}`;
  p.skillRoots = [];
  p.problems = [
    ...p.problems,
    {
      file: p.root,
      severity: 'error',
      rule: 'plugin name clash',
      message: `plugin ${id} is installed in ${p.clash!.length} folders with different content: ${p.clash!.join(', ')}. A plugin's name is only what its manifest says, so none of their skills is loaded. Remove the folder you do not trust (or give one plugin another name or version).`,
    },
  ];
}

/** The registry roots of loaded plugins: each vetted skill folder under its plugin's name (`plugin:<name>:<skill>`). */
export function pluginSkillRoots(plugins: readonly PluginRead[]): SkillRoot[] {
  // Loops and one object per root, not flatMap and a spread: discovery asks this for every plugin installed.
  const roots: SkillRoot[] = [];
  for (const p of plugins) {
    const m = p.manifest;
    if (!m) continue;
    for (const r of p.skillRoots) {
      if (r.skills.length === 0) continue;
      const plugin: NonNullable<SkillRoot['plugin']> = { name: m.name, root: p.root, layout: p.layout ?? 'agent-plugins' };
      if (m.version) plugin.version = m.version;
      roots.push({ path: r.path, scope: 'agent-plugin', source: m.name, only: r.skills, plugin });
    }
  }
  return roots;
}
