// One installed plugin folder, whatever its layout, as the runtime sees it: its manifest, the skill folders
// it contributes (each proven inside the plugin root, links followed: Agent Plugins 1.0 §4.1) and what was
// wrong, with the narrowest failure boundary: a bad manifest rejects the plugin, a bad `skills/` location
// rejects only its skills, a skill that leaves the root or has no SKILL.md is skipped alone (§4.1, §6.2, §7.1).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readRegularFileSync, UnreadableFileError } from '../os/readRegularFile';
import { resolveInRoot } from '../paths/resolveInRoot';
import { MAX_MANIFEST_BYTES, readHostManifest, readStandardManifest, type PluginLayout, type PluginManifest, type PluginProblem } from './pluginManifest';

/** Where each layout keeps its manifest, in the order they are looked for. Root `plugin.json` is the standard's. */
const MANIFESTS: readonly { rel: string; layout: PluginLayout }[] = [
  { rel: 'plugin.json', layout: 'agent-plugins' },
  { rel: '.claude-plugin/plugin.json', layout: 'claude' },
  { rel: '.github/plugin/plugin.json', layout: 'copilot' },
  { rel: '.plugin/plugin.json', layout: 'copilot' },
  { rel: '.codex-plugin/plugin.json', layout: 'codex' },
];

/** Most skills read from one plugin (a plugin is a handful; a hostile one may hold millions of folders). */
export const MAX_PLUGIN_SKILLS = 1000;

/** A folder of skills the plugin contributes, and which of its child folders are vetted skills. */
export interface PluginSkillRoot {
  /** Absolute path of the folder holding skill folders. */
  path: string;
  /** Names of the child folders that are skills of this plugin (inside the root, with a SKILL.md file). */
  skills: string[];
}

/** A plugin folder read. `manifest` is undefined when the plugin is rejected. */
export interface PluginRead {
  /** Absolute path of the plugin folder (as given; links in it are followed when checking containment). */
  root: string;
  layout?: PluginLayout;
  manifest?: PluginManifest;
  skillRoots: PluginSkillRoot[];
  problems: PluginProblem[];
}

/** True when `dir` holds a plugin manifest of any known layout (cheap: stats only). */
export function looksLikePlugin(dir: string): boolean {
  return MANIFESTS.some((m) => fs.statSync(path.join(dir, m.rel), { throwIfNoEntry: false })?.isFile());
}

/** Reads the plugin at `root`. Never throws for what is in the folder; problems are returned. */
export function readPlugin(root: string): PluginRead {
  const out: PluginRead = { root: path.resolve(root), skillRoots: [], problems: [] };
  const found = MANIFESTS.find((m) => fs.lstatSync(path.join(out.root, m.rel), { throwIfNoEntry: false }));
  if (!found) {
    out.problems.push({ file: path.join(out.root, 'plugin.json'), severity: 'error', rule: 'Agent Plugins 1.0 §4.1', message: `${out.root} is not a plugin: it has no plugin.json (nor .claude-plugin/, .github/plugin/, .plugin/ or .codex-plugin/plugin.json). Add a plugin.json with "$schema" and "name".` });
    return out;
  }
  out.layout = found.layout;
  const file = path.join(out.root, found.rel);
  const where = resolveInRoot(out.root, found.rel);
  if (!where.ok) {
    out.problems.push({ file, severity: 'error', rule: 'Agent Plugins 1.0 §4.1', message: `${file} resolves outside the plugin folder (${where.reason}); the plugin is not loaded. Make the manifest a regular file inside the plugin.` });
    return out;
  }
  let text: string;
  try {
    text = readRegularFileSync(where.real ?? where.abs, MAX_MANIFEST_BYTES).bytes.toString('utf8');
  } catch (e) {
    const why = e instanceof UnreadableFileError ? e.message : `${(e as NodeJS.ErrnoException).code ?? 'error'}: ${(e as Error).message}`;
    out.problems.push({ file, severity: 'error', rule: 'Agent Plugins 1.0 §5.1', message: `${file} cannot be read (${why}); the plugin is not loaded. Make it a readable regular file of at most ${MAX_MANIFEST_BYTES} bytes.` });
    return out;
  }
  const read = found.layout === 'agent-plugins' ? readStandardManifest(text, file) : readHostManifest(text, file, found.layout);
  out.problems.push(...read.problems);
  if (!read.manifest) return out;
  out.manifest = read.manifest;
  const budget = { left: MAX_PLUGIN_SKILLS };
  addSkillFolder(out, './skills', true, budget);
  for (const p of read.manifest.skillPaths) if (p.replace(/\/$/, '') !== './skills') addSkillFolder(out, p, false, budget);
  return out;
}

/**
 * Adds the skills of a location: a folder of skill folders (immediate children only, §7.1), or, for a host
 * manifest's path, a skill folder itself.
 */
function addSkillFolder(out: PluginRead, rel: string, fixed: boolean, budget: { left: number }): void {
  const loc = resolveInRoot(out.root, rel);
  const label = path.join(out.root, rel);
  if (!loc.ok) {
    if (loc.reason === 'not-found' && fixed) return; // §6.2: an absent fixed location is not an error.
    out.problems.push({ file: label, field: fixed ? undefined : 'skills', severity: 'error', rule: 'Agent Plugins 1.0 §4.1', message: `${label}: ${loc.reason === 'not-found' ? 'does not exist' : 'resolves outside the plugin folder'}; its skills are not loaded.` });
    return;
  }
  const real = loc.real ?? loc.abs;
  if (!fs.statSync(real).isDirectory()) {
    out.problems.push({ file: label, severity: 'error', rule: 'Agent Plugins 1.0 §6.2', message: `${label} is not a folder; its skills are not loaded. Make skills/ a folder of skill folders.` });
    return;
  }
  if (!fixed && isSkillFile(out.root, `${loc.rel}/SKILL.md`)) {
    out.skillRoots.push({ path: path.dirname(path.join(out.root, loc.rel)), skills: [path.basename(loc.rel)] });
    budget.left--;
    return;
  }
  const names: string[] = [];
  for (const e of fs.readdirSync(real, { withFileTypes: true })) {
    if (e.name.startsWith('.') || !(e.isDirectory() || e.isSymbolicLink())) continue;
    if (budget.left <= 0) {
      out.problems.push({ file: label, severity: 'warning', rule: 'runtime limit', message: `${label}: more than ${MAX_PLUGIN_SKILLS} skills; the rest are not loaded.` });
      break;
    }
    const skillRel = `${loc.rel}/${e.name}`;
    const skill = resolveInRoot(out.root, skillRel);
    if (!skill.ok) {
      out.problems.push({ file: path.join(label, e.name), severity: 'error', rule: 'Agent Plugins 1.0 §4.1', message: `${path.join(label, e.name)} resolves outside the plugin folder; the skill is skipped. Keep skills inside the plugin.` });
      continue;
    }
    if (!isSkillFile(out.root, `${skillRel}/SKILL.md`)) {
      if (fs.statSync(skill.real ?? skill.abs).isDirectory()) {
        out.problems.push({ file: path.join(label, e.name, 'SKILL.md'), severity: 'warning', rule: 'Agent Plugins 1.0 §7.1', message: `${path.join(label, e.name)} has no SKILL.md regular file inside the plugin; it is not a skill. Add SKILL.md or move the folder out of skills/.` });
      }
      continue;
    }
    names.push(e.name);
    budget.left--;
  }
  names.sort();
  out.skillRoots.push({ path: path.join(out.root, loc.rel), skills: names });
}

/** A `SKILL.md` that is a regular file whose real path lies in the plugin (§7.1, §4.1). */
function isSkillFile(root: string, rel: string): boolean {
  const r = resolveInRoot(root, rel);
  return r.ok && fs.statSync(r.real ?? r.abs).isFile();
}
