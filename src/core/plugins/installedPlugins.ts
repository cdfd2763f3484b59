// Where agents install plugins on disk, read with no configuration: Claude Code's installed_plugins.json
// (honouring enabledPlugins in ~/.claude/settings.json), Copilot CLI's ~/.copilot/installed-plugins tree, and
// VS Code's installed-plugins file. Each file is untrusted JSON: bounded like a manifest, and a file that is
// missing or unreadable simply contributes nothing (a plugin folder that is not a plugin is reported by the reader).
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { localDisk } from '../host/localDisk';
import { asBuffer, type DirEntry, type SyncSkillsHost } from '../host/skillsHost';
import { MAX_MANIFEST_BYTES, parseBoundedJson } from './pluginManifest';
import { looksLikePlugin } from './readPlugin';

/** One installed plugin folder and the host that installed it. */
export interface InstalledPlugin {
  dir: string;
  /** `claude-code`, `copilot-cli`, `vscode`, or `config` for a folder the user listed. */
  host: string;
}

/** Inputs: every part optional, so tests point them at a temp HOME. */
export interface InstalledPluginsInput {
  homeDir?: string;
  /** VS Code's installed agent plugins file(s) (under its user data folder). */
  vscodeInstalledFiles?: readonly string[];
  /** Where the install records and plugin folders are read: the disk by default. */
  files?: SyncSkillsHost;
}

function readJson(files: SyncSkillsHost, file: string): Record<string, unknown> | undefined {
  try {
    const read = files.readFile(file, { maxBytes: MAX_MANIFEST_BYTES * 16 });
    return read && parseBoundedJson(asBuffer(read.bytes).toString('utf8'), file, 'host install file').value;
  } catch {
    return undefined;
  }
}

/** Claude Code: `plugins` maps `name@marketplace` to an install record (v1) or a list of them (v2), each with `installPath`. */
function claudePlugins(files: SyncSkillsHost, home: string): InstalledPlugin[] {
  const installed = readJson(files, path.join(home, '.claude', 'plugins', 'installed_plugins.json'));
  const settings = readJson(files, path.join(home, '.claude', 'settings.json'));
  const enabled = settings && typeof settings.enabledPlugins === 'object' && settings.enabledPlugins !== null ? (settings.enabledPlugins as Record<string, unknown>) : {};
  const plugins = installed && typeof installed.plugins === 'object' && installed.plugins !== null ? (installed.plugins as Record<string, unknown>) : {};
  const out: InstalledPlugin[] = [];
  for (const [key, value] of Object.entries(plugins)) {
    if (enabled[key] === false) continue; // disabled in Claude Code: not offered here either
    for (const rec of Array.isArray(value) ? value : [value]) {
      const dir = rec && typeof rec === 'object' ? (rec as Record<string, unknown>).installPath : undefined;
      if (typeof dir === 'string' && path.isAbsolute(dir)) out.push({ dir, host: 'claude-code' });
    }
  }
  return out;
}

/** Copilot CLI: plugin folders up to two levels below `~/.copilot/installed-plugins` (`<marketplace>/<plugin>` or `<plugin>`). */
function copilotPlugins(files: SyncSkillsHost, home: string): InstalledPlugin[] {
  const base = path.join(home, '.copilot', 'installed-plugins');
  const out: InstalledPlugin[] = [];
  const visit = (dir: string, depth: number): void => {
    let entries: DirEntry[];
    try {
      entries = files.readDirectory(dir) ?? [];
    } catch {
      return;
    }
    for (const e of entries.slice(0, 1000)) {
      if (e.kind !== 'directory' || e.name.startsWith('.')) continue;
      const abs = path.join(dir, e.name);
      if (looksLikePlugin(abs, files)) out.push({ dir: abs, host: 'copilot-cli' });
      else if (depth < 2) visit(abs, depth + 1);
    }
  };
  visit(base, 1);
  return out;
}

/**
 * VS Code (1.139): `<user data>/User/agent-plugins/installed.json` is `{ version: 1, installed: [{ pluginUri,
 * marketplace, name? }] }`, each `pluginUri` a `file:` URI of the plugin folder (as VS Code itself reads it:
 * entries without a string `pluginUri` and `marketplace` are skipped).
 */
function vscodePlugins(files: SyncSkillsHost, file: string): InstalledPlugin[] {
  const json = readJson(files, file);
  const list = json && Array.isArray(json.installed) ? json.installed.slice(0, 1000) : [];
  const out: InstalledPlugin[] = [];
  for (const entry of list) {
    if (!entry || typeof entry !== 'object') continue;
    const { pluginUri, marketplace } = entry as Record<string, unknown>;
    if (typeof pluginUri !== 'string' || typeof marketplace !== 'string') continue;
    const dir = pluginUri.startsWith('file:') ? safeFileUrl(pluginUri) : undefined;
    if (dir) out.push({ dir, host: 'vscode' });
  }
  return out;
}

/**
 * Folders a user listed (VS Code's `chat.pluginLocations`, our `agentSkills.pluginLocations`, `--plugin`): each a
 * plugin folder, or a folder whose immediate children are plugin folders. A folder that is neither is returned
 * as is, so the reader reports it (once: see PluginShelf).
 */
export function pluginsAt(dirs: readonly string[], host: string, files: SyncSkillsHost = localDisk): InstalledPlugin[] {
  const out: InstalledPlugin[] = [];
  for (const dir of dirs) {
    if (looksLikePlugin(dir, files)) {
      out.push({ dir, host });
      continue;
    }
    let children: DirEntry[] = [];
    try {
      children = (files.readDirectory(dir) ?? []).slice(0, 1000);
    } catch {
      // missing or unreadable: reported by the reader
    }
    const found = children.filter((e) => (e.kind === 'directory' || e.kind === 'symlink') && !e.name.startsWith('.') && looksLikePlugin(path.join(dir, e.name), files));
    if (found.length) for (const e of found) out.push({ dir: path.join(dir, e.name), host });
    else out.push({ dir, host });
  }
  return out;
}

function safeFileUrl(u: string): string | undefined {
  try {
    return fileURLToPath(u);
  } catch {
    return undefined;
  }
}

/** Every plugin folder the hosts installed, each folder once (the first host that lists it names it). */
export function installedPlugins(input: InstalledPluginsInput): InstalledPlugin[] {
  const files = input.files ?? localDisk;
  const all = [...(input.vscodeInstalledFiles ?? []).flatMap((f) => vscodePlugins(files, f)), ...(input.homeDir ? [...copilotPlugins(files, input.homeDir), ...claudePlugins(files, input.homeDir)] : [])];
  const seen = new Set<string>();
  return all.filter((p) => {
    const key = files.realPath(p.dir);
    if (key === undefined) return false;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
