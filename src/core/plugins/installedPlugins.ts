// Where agents install plugins on disk, read with no configuration: Claude Code's installed_plugins.json
// (honouring enabledPlugins in ~/.claude/settings.json), Copilot CLI's ~/.copilot/installed-plugins tree, and
// VS Code's installed-plugins file. Each file is untrusted JSON: bounded like a manifest, and a file that is
// missing or unreadable simply contributes nothing (a plugin folder that is not a plugin is reported by the reader).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readRegularFileSync } from '../os/readRegularFile';
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
}

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    return parseBoundedJson(readRegularFileSync(file, MAX_MANIFEST_BYTES * 16).bytes.toString('utf8'), file, 'host install file').value;
  } catch {
    return undefined;
  }
}

/** Claude Code: `plugins` maps `name@marketplace` to an install record (v1) or a list of them (v2), each with `installPath`. */
function claudePlugins(home: string): InstalledPlugin[] {
  const installed = readJson(path.join(home, '.claude', 'plugins', 'installed_plugins.json'));
  const settings = readJson(path.join(home, '.claude', 'settings.json'));
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
function copilotPlugins(home: string): InstalledPlugin[] {
  const base = path.join(home, '.copilot', 'installed-plugins');
  const out: InstalledPlugin[] = [];
  const visit = (dir: string, depth: number): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.slice(0, 1000)) {
      if (!e.isDirectory() || e.name.startsWith('.')) continue;
      const abs = path.join(dir, e.name);
      if (looksLikePlugin(abs)) out.push({ dir: abs, host: 'copilot-cli' });
      else if (depth < 2) visit(abs, depth + 1);
    }
  };
  visit(base, 1);
  return out;
}

/** VS Code: every absolute path or `file:` URI in its installed-plugins file that names a plugin folder. */
function vscodePlugins(file: string): InstalledPlugin[] {
  const json = readJson(file);
  if (!json) return [];
  const out: InstalledPlugin[] = [];
  const visit = (v: unknown, depth: number): void => {
    if (depth > 8 || out.length >= 1000) return;
    if (typeof v === 'string') {
      const dir = v.startsWith('file:') ? safeFileUrl(v) : path.isAbsolute(v) ? v : undefined;
      if (dir && looksLikePlugin(dir)) out.push({ dir, host: 'vscode' });
    } else if (Array.isArray(v)) v.forEach((x) => visit(x, depth + 1));
    else if (v && typeof v === 'object') Object.values(v).forEach((x) => visit(x, depth + 1));
  };
  visit(json, 0);
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
  const all = [...(input.vscodeInstalledFiles ?? []).flatMap(vscodePlugins), ...(input.homeDir ? [...copilotPlugins(input.homeDir), ...claudePlugins(input.homeDir)] : [])];
  const seen = new Set<string>();
  return all.filter((p) => {
    let key: string;
    try {
      key = fs.realpathSync.native(p.dir);
    } catch {
      return false;
    }
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
